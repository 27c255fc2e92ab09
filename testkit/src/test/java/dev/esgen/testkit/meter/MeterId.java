package dev.esgen.testkit.meter;

import java.util.UUID;

/** An electricity meter's id. */
public record MeterId(String value) {

  public static MeterId random() {
    return new MeterId(UUID.randomUUID().toString());
  }
}
