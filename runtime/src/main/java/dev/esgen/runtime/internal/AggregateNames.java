package dev.esgen.runtime.internal;

import java.util.regex.Pattern;

/**
 * The form of an aggregate type's stored name, the prefix of every key: lower-case letters and digits
 * separated by single {@code '-'}. An {@code AggregateDefinition} requires it of its name, and a
 * {@code StoreConfig} of the names it sets a read consistency for.
 *
 * <pre>{@code
 * AggregateNames.isStoredName("bank-account");   // true
 * AggregateNames.isStoredName("BankAccount");    // false
 * }</pre>
 */
public final class AggregateNames {

  private static final Pattern STORED_NAME = Pattern.compile("[a-z0-9]+(-[a-z0-9]+)*");

  private AggregateNames() {}

  /** Whether {@code name} has the form of a stored name. */
  public static boolean isStoredName(String name) {
    return STORED_NAME.matcher(name).matches();
  }
}
