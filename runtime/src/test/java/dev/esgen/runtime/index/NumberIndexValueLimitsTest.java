package dev.esgen.runtime.index;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.esgen.runtime.internal.keys.IndexKeys;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A {@code BigDecimal} with a large exponent is a short object but has a plain form of up to 2^31 digits,
 * which no key over DynamoDB's 2048 bytes could hold. Its stored form must not be built digit by digit (a
 * lookup parameter such as {@code 1e999999999} must not take the JVM's memory, nor fail with an unrelated
 * error), and must still be one string per value, so that an aggregate holding it can be stored, changed
 * and found.
 */
class NumberIndexValueLimitsTest {

  @Test
  void aNumberWhosePlainFormCannotFitAKeyKeepsItsScientificFormWithoutBuildingTheDigits() {
    // Building the digits would fail at once for the first two (a string past the JVM's array limit) and
    // give a 100 MB string for the third, not this value.
    assertEquals("1E+2147483647", IndexValues.of(new BigDecimal("1E+2147483647")));
    assertEquals("-1E-2147483647", IndexValues.of(new BigDecimal("-1E-2147483647")));
    assertEquals("1.25E+100000000", IndexValues.of(new BigDecimal("1250E+99999997")));
  }

  /**
   * 100 × 10^2147483647 is 10^2147483649: a BigDecimal holds it (unscaled 100, scale -2147483647), but not
   * with its trailing zeros stripped, whose scale would be below an int's range.
   */
  @Test
  void aNumberWhoseStrippedScaleIsBeyondAnIntKeepsItsScientificForm() {
    BigDecimal hundredTimes = new BigDecimal("1E+2147483647").multiply(BigDecimal.valueOf(100));
    assertEquals("1E+2147483649", IndexValues.of(hundredTimes));
    assertEquals("-1.23E+2147483651", IndexValues.of(BigDecimal.valueOf(-12300, -Integer.MAX_VALUE)));
    assertEquals("1E+2147483648", IndexValues.of(BigDecimal.valueOf(10, -Integer.MAX_VALUE)), "the form it had");
  }

  @Test
  void aNumberPastTheLimitHasOneFormAndNoOtherNumbersForm() {
    int limit = IndexKeys.KEY_LIMIT_BYTES;
    assertEquals(IndexValues.of(new BigDecimal("1E+" + limit)), IndexValues.of(new BigDecimal("10.00E+" + (limit - 1))));
    assertNotEquals(IndexValues.of(new BigDecimal("1E+" + limit)), IndexValues.of(new BigDecimal("1E+" + (limit + 1))));
    // The largest power of ten still written plainly, and the next one, which is not.
    assertEquals(limit, IndexValues.of(new BigDecimal("1E+" + (limit - 1))).length());
    assertEquals("1E+" + limit, IndexValues.of(new BigDecimal("1E+" + limit)));
  }

  @Test
  void numbersUpToTheKeyLimitKeepTheirPlainForm() {
    int limit = IndexKeys.KEY_LIMIT_BYTES;
    assertEquals("1" + "0".repeat(limit - 1), IndexValues.of(new BigDecimal("1E+" + (limit - 1))));
    assertEquals("-0." + "0".repeat(limit - 5) + "1", IndexValues.of(new BigDecimal("-1E-" + (limit - 4))));
    assertEquals("12.5", IndexValues.of(new BigDecimal("1.250E+1")));
  }

  /**
   * No form of a number of more significant digits than a key holds fits: it gets a stand-in as long as its
   * decimal form would be, so that an append refuses it as it would the digits, without writing them.
   */
  @Test
  void aNumberWithMoreSignificantDigitsThanAKeyHoldsGetsAStandInAsLongAsItsDigitsWithoutWritingThem() {
    int limit = IndexKeys.KEY_LIMIT_BYTES;
    BigInteger sevens = new BigInteger("7".repeat(limit + 1));
    List<BigInteger> numbers = List.of(
        sevens,
        sevens.negate(),
        BigInteger.TEN.pow(limit),                                 // limit + 1 digits, a power of ten
        BigInteger.TEN.pow(5000).subtract(BigInteger.ONE));        // 5000 nines, a hair below 10^5000
    for (BigInteger number : numbers) {
      String form = IndexValues.of(UnwritableNumber.of(number));
      assertEquals(number.toString().length(), form.length(), "as long as the digits of " + number.bitLength() + " bits");
      assertTrue(form.startsWith(number.signum() < 0 ? "-0x" : "0x"), form.substring(0, 10));
    }
    BigInteger large = BigInteger.TEN.pow(99_999).multiply(BigInteger.valueOf(7)).add(BigInteger.ONE);
    assertEquals(100_000, IndexValues.of(UnwritableNumber.of(large)).length(), "as long as its 100,000 digits");
    // For a BigDecimal the form is BigDecimal.toString's, its zeros stripped: plain, with a point, or with E.
    for (int scale : List.of(0, 3, 5000, -7)) {
      String form = IndexValues.of(new BigDecimal(UnwritableNumber.of(sevens), scale));
      assertEquals(new BigDecimal(sevens, scale).toString().length(), form.length(), "the form of scale " + scale);
      assertTrue(form.startsWith("0x"), form.substring(0, 10));
    }
    // 100 times that at the lowest scale: stripped, its scale is below an int's range.
    String beyond = IndexValues.of(new BigDecimal(UnwritableNumber.of(sevens.multiply(BigInteger.valueOf(100))),
        Integer.MIN_VALUE));
    assertEquals(("7." + "7".repeat(limit) + "E+" + (limit + 2 - (long) Integer.MIN_VALUE)).length(), beyond.length());
    // As distinct as the numbers, and one per number however it is written.
    assertNotEquals(IndexValues.of(sevens), IndexValues.of(sevens.add(BigInteger.TWO)));
    assertNotEquals(IndexValues.of(new BigDecimal(sevens, 3)), IndexValues.of(new BigDecimal(sevens, 4)));
    assertEquals(IndexValues.of(new BigDecimal(sevens, 3)),
        IndexValues.of(new BigDecimal(UnwritableNumber.of(sevens.multiply(BigInteger.valueOf(100))), 5)));
  }
}
