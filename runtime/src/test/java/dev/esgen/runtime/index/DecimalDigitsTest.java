package dev.esgen.runtime.index;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.math.BigInteger;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Digits counted from the bits, against the digits written, where the count is easiest to get wrong. */
class DecimalDigitsTest {

  private static void assertCounted(BigInteger number) {
    assertEquals(number.abs().toString().length(), DecimalDigits.of(number), "a number of " + number.bitLength() + " bits");
  }

  @Test
  void powersOfTenAndTheirNeighboursAreCountedExactly() {
    for (int exponent = 0; exponent <= 2100; exponent += exponent < 40 ? 1 : 97) {
      BigInteger power = BigInteger.TEN.pow(exponent);
      assertCounted(power);
      assertCounted(power.subtract(BigInteger.ONE).max(BigInteger.ONE));
      assertCounted(power.add(BigInteger.ONE));
      assertCounted(power.negate());
      // Within a few millionths of the power, above and below it.
      assertCounted(power.multiply(BigInteger.valueOf(1_000_001)).divide(BigInteger.valueOf(1_000_000)));
      assertCounted(power.multiply(BigInteger.valueOf(999_999)).divide(BigInteger.valueOf(1_000_000)).max(BigInteger.ONE));
    }
  }

  @Test
  void numbersOfEverySizeAreCountedExactly() {
    Random random = new Random(42);
    for (int i = 0; i < 600; i++) {
      BigInteger number = new BigInteger(1 + random.nextInt(i < 300 ? 200 : 10_000), random);
      assertCounted(random.nextBoolean() ? number : number.negate());
    }
    assertCounted(BigInteger.ZERO);
    assertCounted(BigInteger.valueOf(Long.MAX_VALUE));
    assertCounted(BigInteger.valueOf(Long.MIN_VALUE));
    assertCounted(BigInteger.ONE.shiftLeft(63));
  }
}
