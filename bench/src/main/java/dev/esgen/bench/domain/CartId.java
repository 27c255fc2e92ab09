package dev.esgen.bench.domain;

import java.util.UUID;

/** A cart's id: a UUID, so every benchmark stream has a fresh one of the same length. */
public record CartId(UUID value) {

  public static CartId random() {
    return new CartId(UUID.randomUUID());
  }
}
