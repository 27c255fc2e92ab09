package dev.esgen.runtime.index;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.esgen.runtime.internal.keys.IndexKeys;
import java.math.BigDecimal;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * A {@code BigDecimal} with a large exponent is a short object but has a plain form of up to 2^31 digits:
 * no key can hold one over DynamoDB's 2048 bytes, so its stored form must be refused as such a value
 * is, with {@link IllegalArgumentException}, and without building the digits first (a lookup parameter
 * such as {@code 1e999999999} must not take the JVM's memory, nor fail with an unrelated error).
 */
class NumberIndexValueLimitsTest {

  @Test
  void aNumberWhosePlainFormCannotFitAKeyIsRefusedWithoutBuildingIt() {
    assertThrows(IllegalArgumentException.class, () -> IndexValues.of(new BigDecimal("1E+2147483647")));
    assertThrows(IllegalArgumentException.class, () -> IndexValues.of(new BigDecimal("-1E-2147483647")));
    assertTimeoutPreemptively(Duration.ofSeconds(1), () ->
        assertThrows(IllegalArgumentException.class, () -> IndexValues.of(new BigDecimal("1E+100000000"))));
  }

  @Test
  void numbersUpToTheKeyLimitKeepTheirPlainForm() {
    int limit = IndexKeys.KEY_LIMIT_BYTES;
    assertEquals("1" + "0".repeat(limit - 1), IndexValues.of(new BigDecimal("1E+" + (limit - 1))));
    assertEquals("-0." + "0".repeat(limit - 5) + "1", IndexValues.of(new BigDecimal("-1E-" + (limit - 4))));
    assertEquals("12.5", IndexValues.of(new BigDecimal("1.250E+1")));
  }
}
