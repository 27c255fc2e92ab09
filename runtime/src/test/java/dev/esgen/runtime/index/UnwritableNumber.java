package dev.esgen.runtime.index;

import java.math.BigInteger;

/**
 * A {@code BigInteger} whose {@code toString} fails: writing a number of hundreds of thousands of digits
 * takes seconds, and a test that must show it is not written (without timing it) gives one of these.
 */
final class UnwritableNumber extends BigInteger {

  private static final long serialVersionUID = 1L;

  private UnwritableNumber(BigInteger value) {
    super(value.toByteArray());
  }

  /** {@code value}, refusing to be written. */
  static UnwritableNumber of(BigInteger value) {
    return new UnwritableNumber(value);
  }

  @Override
  public String toString() {
    throw new AssertionError("the digits of a number of " + bitLength() + " bits were written");
  }

  @Override
  public String toString(int radix) {
    throw new AssertionError("the digits of a number of " + bitLength() + " bits were written");
  }
}
