package dev.esgen.runtime.index;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import dev.esgen.runtime.internal.keys.IndexKeys;
import java.math.BigDecimal;
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

  @Test
  void aNumberWithMoreSignificantDigitsThanAKeyHoldsKeepsThemAll() {
    String digits = "7".repeat(IndexKeys.KEY_LIMIT_BYTES + 1);
    // No shorter exact form exists: like a string that long, an append refuses it when it builds the key.
    assertEquals(digits, IndexValues.of(new BigDecimal(digits)));
  }
}
