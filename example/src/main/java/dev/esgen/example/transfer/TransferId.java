package dev.esgen.example.transfer;

import java.util.UUID;

/** Identifies a transfer; a string id, as a payment reference would be. */
public record TransferId(String value) {

  public static TransferId random() {
    return new TransferId("tr-" + UUID.randomUUID());
  }
}
