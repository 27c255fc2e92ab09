package dev.esgen.runtime.index;

import dev.esgen.runtime.internal.keys.IndexKeys;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.time.LocalDate;
import java.util.UUID;

/**
 * The stored string form of every supported index column type: one canonical string per value, so that
 * equal values always meet in the same index or reservation key.
 *
 * <ul>
 *   <li>numbers: plain decimal notation without exponent or trailing zeros, exact for every value
 *       ({@code 42}, {@code -7}, {@code 0.1}, {@code 1E+3} becomes {@code 1000}); a {@code double} or
 *       {@code float} is first taken at the digits {@link Double#toString(double)} or
 *       {@link Float#toString(float)} give it ({@code 0.1f} is {@code 0.1}), which depend on the JDK (see
 *       {@link #of(double)}); {@code -0.0} as {@code 0}; NaN and the infinities as {@code NaN},
 *       {@code Infinity}, {@code -Infinity}; a {@code BigDecimal} whose plain form would be longer than any
 *       key can be (over 2,048 characters) as {@link BigDecimal#toString()} writes it without trailing
 *       zeros ({@code 1E+999999999}), so that it can be stored and looked up like any other value;
 *   <li>booleans: {@code true} / {@code false}; enums: {@link Enum#name()} (never {@code toString()},
 *       which a class may override);
 *   <li>UUID: lower-case hyphenated; Instant: ISO-8601 in UTC as {@link Instant#toString()}; LocalDate:
 *       ISO-8601 {@code yyyy-MM-dd}; String: itself.
 * </ul>
 * Generated {@code FooRepository.IndexColumns} call these; a record with one component is encoded as that component.
 *
 * <pre>{@code
 * IndexValues.of(new BigDecimal("10.50"));   // "10.5"
 * IndexValues.of(Genre.POETRY);              // "POETRY"
 * }</pre>
 */
public final class IndexValues {

  private IndexValues() {}

  /** The string itself. */
  public static String of(String value) {
    return value;
  }

  /** Plain decimal notation: {@code 42}, {@code -7}. */
  public static String of(long value) {
    return Long.toString(value);
  }

  /**
   * The digits {@link Double#toString(double)} gives it, without exponent or trailing zeros; {@code -0.0} as
   * {@code 0}; {@code NaN}, {@code Infinity} and {@code -Infinity} as named.
   *
   * <p>From JDK 19 on those digits are the shortest that identify the value; JDK 17 and 18 give some values
   * more ({@code 2e23} is {@code 199999999999999980000000} there, {@code 200000000000000000000000} from
   * JDK 19 on), so such a value's stored form changes when the JVM crosses JDK 19 (see
   * {@code docs/index-columns.md}).
   */
  public static String of(double value) {
    return Double.isFinite(value) ? plain(BigDecimal.valueOf(value)) : Double.toString(value);
  }

  /**
   * As {@link #of(double)}, from the digits {@link Float#toString(float)} gives it ({@code 0.1f} is {@code 0.1}),
   * which likewise differ between JDK 17 and 18 and JDK 19 on for some values ({@code 2.285692E9f} is
   * {@code 2285691900} on JDK 17, {@code 2285692000} from JDK 19 on).
   */
  public static String of(float value) {
    return Float.isFinite(value) ? plain(new BigDecimal(Float.toString(value))) : Float.toString(value);
  }

  /** {@code true} or {@code false}. */
  public static String of(boolean value) {
    return Boolean.toString(value);
  }

  /** Plain decimal notation. */
  public static String of(BigInteger value) {
    return value.toString();
  }

  /**
   * Plain decimal notation without exponent or trailing zeros ({@code 10.50} is {@code 10.5}); past 2,048
   * characters the scientific form {@link BigDecimal#toString()} writes, without trailing zeros.
   */
  public static String of(BigDecimal value) {
    return plain(value);
  }

  /** {@link Enum#name()}, never {@code toString()}. */
  public static String of(Enum<?> value) {
    return value.name();
  }

  /** Lower-case and hyphenated. */
  public static String of(UUID value) {
    return value.toString();
  }

  /** ISO-8601 in UTC, as {@link Instant#toString()} writes it. */
  public static String of(Instant value) {
    return value.toString();
  }

  /** ISO-8601, {@code yyyy-MM-dd}. */
  public static String of(LocalDate value) {
    return value.toString();
  }

  private static String plain(BigDecimal value) {
    if (value.signum() == 0) {
      return "0";
    }
    // The zeros are stripped from the unscaled value, the scale kept as a long: value.stripTrailingZeros()
    // throws when the stripped scale is below an int's range, as it is for 100 times 1E+2147483647.
    BigDecimal coefficient = new BigDecimal(value.unscaledValue()).stripTrailingZeros();
    BigInteger digits = coefficient.unscaledValue();
    long scale = (long) value.scale() + coefficient.scale();
    // The plain form of 1E+999999999 has a billion digits: measured before it is built. No key could hold
    // it, so such a number keeps the form toString gives it: as canonical once the zeros are stripped (one
    // unscaled value and scale per number), and never the plain form of another number.
    long precision = DecimalDigits.of(digits);   // coefficient.precision() computes a power of ten as large
    long length = (digits.signum() < 0 ? 1 : 0)
        + (scale <= 0 ? precision - scale : scale >= precision ? scale + 2 : precision + 1);
    if (length <= IndexKeys.KEY_LIMIT_BYTES) {
      return new BigDecimal(digits, (int) scale).toPlainString();
    }
    return scale >= Integer.MIN_VALUE ? new BigDecimal(digits, (int) scale).toString() : scientific(digits, scale);
  }

  /**
   * What {@link BigDecimal#toString()} would write for {@code digits} × 10^-{@code scale} if a BigDecimal
   * could have a scale below {@link Integer#MIN_VALUE}: {@code 1.23E+2147483651}.
   */
  private static String scientific(BigInteger digits, long scale) {
    String coefficient = digits.abs().toString();
    return (digits.signum() < 0 ? "-" : "") + coefficient.charAt(0)
        + (coefficient.length() > 1 ? "." + coefficient.substring(1) : "")
        + "E+" + (coefficient.length() - 1 - scale);
  }
}
