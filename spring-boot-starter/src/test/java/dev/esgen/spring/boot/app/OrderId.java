package dev.esgen.spring.boot.app;

import java.util.UUID;

/** Identifies an order. */
public record OrderId(UUID value) {

  public static OrderId random() {
    return new OrderId(UUID.randomUUID());
  }
}
