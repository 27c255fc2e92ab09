package dev.esgen.processor.functional.parcel;

import java.util.Objects;

/**
 * A map key written by its toString() and read back by its String constructor. (As a value it would
 * not read back: Jackson writes its getter's property, and the constructor takes no property.)
 */
public final class Code {
  private final String value;

  public Code(String value) {
    this.value = value;
  }

  public String getValue() {
    return value;
  }

  @Override
  public String toString() {
    return value;
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof Code code && code.value.equals(value);
  }

  @Override
  public int hashCode() {
    return Objects.hash(value);
  }
}
