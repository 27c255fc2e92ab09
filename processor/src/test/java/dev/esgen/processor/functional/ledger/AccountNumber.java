package dev.esgen.processor.functional.ledger;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

/**
 * The ledger's id, a plain String at first. Its string form, which the keys are built from, is that
 * String; {@code @JsonValue} and the delegating creator keep its JSON the plain string old events hold.
 */
public record AccountNumber(@JsonValue String value) {

  @JsonCreator(mode = JsonCreator.Mode.DELEGATING)
  public AccountNumber {
    if (value == null || value.isBlank()) {
      throw new IllegalArgumentException("an account number is not blank");
    }
  }
}
