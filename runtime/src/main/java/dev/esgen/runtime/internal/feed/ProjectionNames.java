package dev.esgen.runtime.internal.feed;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * The names a projection may have: stored with every position it keeps, so the change feed and the test
 * kit's in-memory feed take exactly the same ones.
 *
 * <pre>{@code
 * String name = ProjectionNames.checked("balances");   // returned as given
 * ProjectionNames.checked("balances v2");              // IllegalArgumentException
 * }</pre>
 */
public final class ProjectionNames {

  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,127}");

  private ProjectionNames() {}

  /**
   * {@code name}, when it is 1 to 128 letters, digits, {@code .}, {@code _} or {@code -}, starting with a
   * letter or digit.
   *
   * @throws IllegalArgumentException when it is not
   */
  public static String checked(String name) {
    Objects.requireNonNull(name, "name");
    if (!NAME.matcher(name).matches()) {
      throw new IllegalArgumentException("projection name '" + name + "' must be 1 to 128 letters, digits, '.',"
          + " '_' or '-', starting with a letter or digit");
    }
    return name;
  }
}
