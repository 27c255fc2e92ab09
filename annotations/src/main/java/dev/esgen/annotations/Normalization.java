package dev.esgen.annotations;

import java.text.Normalizer;
import java.util.Locale;

/**
 * How a {@link Unique} column's value is normalised before it is reserved and before it is looked up:
 * two values that normalise to the same string count as the same value.
 *
 * <p>The stored value of the aggregate itself is never changed; only the uniqueness reservation and the
 * lookup key use the normalised form. Choose before data is written: changing the normalisation of a
 * column that already holds reservations leaves those reservations under their old form (see
 * {@code docs/index-columns.md} for how to rebuild them).
 *
 * <pre>{@code
 * @Unique(normalize = Normalization.CASE_INSENSITIVE) String email     // "Ann@Example.com" == "ann@example.com"
 * Normalization.CASE_INSENSITIVE.apply("Ann@Example.com");            // "ann@example.com"
 * }</pre>
 */
public enum Normalization {

  /** The value as it is: {@code "Ann"} and {@code "ann"} are different values. */
  EXACT {
    @Override
    public String apply(String value) {
      return value;
    }
  },

  /** Lower case in {@link Locale#ROOT}, so that the result does not depend on the JVM's locale. */
  CASE_INSENSITIVE {
    @Override
    public String apply(String value) {
      return value.toLowerCase(Locale.ROOT);
    }
  },

  /**
   * Unicode NFKC (compatibility composition: full-width and ligature forms become their plain letters),
   * leading and trailing white space stripped, then lower case in {@link Locale#ROOT}: for names and
   * addresses typed by people.
   */
  NFKC_TRIMMED_CASE_INSENSITIVE {
    @Override
    public String apply(String value) {
      return Normalizer.normalize(value, Normalizer.Form.NFKC).strip().toLowerCase(Locale.ROOT);
    }
  };

  /** The normalised form of {@code value}, a column's stored string form. */
  public abstract String apply(String value);
}
