package dev.esgen.runtime.index;

import dev.esgen.runtime.internal.keys.IndexKeys;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.time.LocalDate;
import java.util.HexFormat;
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
 *       zeros ({@code 1E+999999999}), so that it can be stored and looked up like any other value; a
 *       {@code BigInteger} or {@code BigDecimal} of more significant digits than that, which no form fits
 *       in a key, as a stand-in of the same length as its form (below);
 *   <li>booleans: {@code true} / {@code false}; enums: {@link Enum#name()} (never {@code toString()},
 *       which a class may override);
 *   <li>UUID: lower-case hyphenated; Instant: ISO-8601 in UTC as {@link Instant#toString()}; LocalDate:
 *       ISO-8601 {@code yyyy-MM-dd}; String: itself.
 * </ul>
 * Generated {@code FooRepository.IndexColumns} call these; a record with one component is encoded as that component.
 *
 * <p>The stand-in of a number of over 2,048 significant digits is {@code 0x}, the hexadecimal digits of its
 * unscaled value (for a {@code BigDecimal} with its trailing zeros stripped, followed by {@code E} and the
 * exponent), padded with {@code _} to the length its decimal form would have. Writing millions of decimal
 * digits takes seconds; the stand-in is built in time linear in the number's size. Being as long, it is
 * refused by the same key-length check with the same message (an append fails with
 * {@link IllegalArgumentException} before writing anything, a lookup finds nothing), and being as distinct
 * as the numbers, it tells a changed value from an unchanged one as the digits would.
 *
 * <pre>{@code
 * IndexValues.of(new BigDecimal("10.50"));   // "10.5"
 * IndexValues.of(Genre.POETRY);              // "POETRY"
 * }</pre>
 */
public final class IndexValues {

  /**
   * A number of at most this many bits is below 2^6,000, which has 1,807 digits: its digits fit a key, so
   * they are written without being counted first.
   */
  private static final int SURELY_SHORT_BITS = 6_000;

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

  /**
   * Plain decimal notation; past 2,048 digits, which no key holds, a stand-in as long (see the class
   * comment), without writing the digits.
   */
  public static String of(BigInteger value) {
    if (value.bitLength() > SURELY_SHORT_BITS) {
      long digits = DecimalDigits.of(value);
      if (digits > IndexKeys.KEY_LIMIT_BYTES) {
        return standIn(value, "", (value.signum() < 0 ? 1 : 0) + digits);
      }
    }
    return value.toString();
  }

  /**
   * Plain decimal notation without exponent or trailing zeros ({@code 10.50} is {@code 10.5}); past 2,048
   * characters the scientific form {@link BigDecimal#toString()} writes, without trailing zeros; past 2,048
   * significant digits, which no form fits in a key, a stand-in as long as that form (see the class
   * comment), without writing the digits.
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
    if (precision > IndexKeys.KEY_LIMIT_BYTES) {
      // The scientific form writes every digit too: no key holds either form.
      return standIn(digits, "E" + -scale, scientificLength(digits.signum(), precision, scale));
    }
    return scale >= Integer.MIN_VALUE ? new BigDecimal(digits, (int) scale).toString() : scientific(digits, scale);
  }

  /**
   * The length of what {@link BigDecimal#toString()} writes (or {@link #scientific} for a scale below an
   * int's range) for a number of {@code precision} digits and {@code scale}, its trailing zeros stripped:
   * the plain form for a scale of 0, or a positive one with an exponent of -6 or more; else one digit, the
   * point and the others, {@code E}, the exponent's sign and its digits.
   */
  private static long scientificLength(int signum, long precision, long scale) {
    long sign = signum < 0 ? 1 : 0;
    long exponent = precision - 1 - scale;
    if (scale == 0 || scale > 0 && exponent >= -6) {
      return sign + (scale >= precision ? scale + 2 : precision + (scale == 0 ? 0 : 1));
    }
    return sign + precision + (precision > 1 ? 1 : 0) + 2 + Long.toString(Math.abs(exponent)).length();
  }

  /**
   * The stand-in of a number of more significant digits than any key holds (see the class comment):
   * {@code 0x}, the hexadecimal digits of {@code unscaled}'s magnitude, {@code exponent}, padded with
   * {@code _} to {@code length}, the length of the number's decimal form.
   */
  private static String standIn(BigInteger unscaled, String exponent, long length) {
    String written = (unscaled.signum() < 0 ? "-" : "") + "0x"
        + HexFormat.of().formatHex(unscaled.abs().toByteArray()) + exponent;
    return written + "_".repeat(Math.toIntExact(length - written.length()));
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
