package dev.esgen.runtime.counter;

import java.util.UUID;

/** The test aggregate's id. */
public record CounterId(String value) {

  public static CounterId random() {
    return new CounterId(UUID.randomUUID().toString());
  }
}
