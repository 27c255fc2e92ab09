package dev.esgen.example.account;

import java.util.UUID;

/** Identifies a bank account. */
public record AccountId(UUID value) {

  public static AccountId random() {
    return new AccountId(UUID.randomUUID());
  }
}
