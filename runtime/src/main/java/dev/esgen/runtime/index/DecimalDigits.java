package dev.esgen.runtime.index;

import java.math.BigInteger;

/**
 * Counts the decimal digits of a {@link BigInteger} without writing them: from its bit length and its top
 * 62 bits, which place its base-10 logarithm between two bounds a hair apart. Writing a number of millions
 * of digits takes seconds ({@link BigInteger#toString()} divides it down by powers of ten), and so does
 * {@link java.math.BigDecimal#precision()}, which computes the power of ten next to it; this reads 62 bits.
 * Only a number within a few millionths of a power of ten (10^d itself, or 99...9) needs that power of ten
 * to tell on which side of it the number lies.
 *
 * <pre>{@code
 * DecimalDigits.of(BigInteger.TEN.pow(5000).subtract(BigInteger.ONE));   // 5000
 * }</pre>
 */
final class DecimalDigits {

  private static final double LOG10_2 = Math.log10(2);

  /**
   * Far above the rounding errors of the bounds, which stay below 1e-6 for every bit length a BigInteger
   * can have (the largest term, the bit count times log10(2), is below 10^9 and its double carries 16 digits).
   */
  private static final double SLACK = 1e-6;

  private DecimalDigits() {}

  /** How many decimal digits {@code value} has, sign aside; 1 for zero. */
  static long of(BigInteger value) {
    BigInteger magnitude = value.abs();
    int bits = magnitude.bitLength();
    if (bits < Long.SIZE) {
      return Long.toString(magnitude.longValue()).length();
    }
    int shift = bits - 62;
    long top = magnitude.shiftRight(shift).longValue();   // 2^61 <= top < 2^62
    // top * 2^shift <= magnitude < (top + 1) * 2^shift: its log10 lies between these two.
    double below = Math.log10(top) + shift * LOG10_2;
    double above = Math.log10(top + 1) + shift * LOG10_2;
    long low = (long) Math.floor(below - SLACK);
    long high = (long) Math.floor(above + SLACK);
    if (low == high) {
      return low + 1;
    }
    return magnitude.compareTo(BigInteger.TEN.pow(Math.toIntExact(high))) >= 0 ? high + 1 : high;
  }
}
