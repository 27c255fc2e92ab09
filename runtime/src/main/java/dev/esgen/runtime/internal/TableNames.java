package dev.esgen.runtime.internal;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * The table names DynamoDB takes, checked alike wherever a setting names a table: 3 to 255 letters,
 * digits, {@code _}, {@code -} and {@code .}, or a table's ARN. Another name is refused when it is
 * configured rather than by the first request, which for a stream poller would fail every poll for ever.
 *
 * <pre>{@code
 * TableNames.require("checkpointTable", "feed");   // returns "feed"
 * TableNames.require("checkpointTable", "ab");     // IllegalArgumentException: checkpointTable 'ab' is no ...
 * }</pre>
 */
public final class TableNames {

  /** DynamoDB's table names: 3 to 255 letters, digits, {@code _}, {@code -} and {@code .}. */
  private static final Pattern TABLE_NAME = Pattern.compile("[a-zA-Z0-9_.-]{3,255}");

  /** A table's ARN, which DynamoDB takes in place of its name. */
  private static final Pattern TABLE_ARN =
      Pattern.compile("arn:[a-z0-9-]+:dynamodb:[a-z0-9-]+:[0-9]{12}:table/[a-zA-Z0-9_.-]{3,255}");

  private TableNames() {}

  /**
   * {@code name}, when DynamoDB takes it as a table name.
   *
   * @throws NullPointerException naming {@code setting} when {@code name} is null
   * @throws IllegalArgumentException naming {@code setting}, the name and the rule otherwise
   */
  public static String require(String setting, String name) {
    Objects.requireNonNull(name, setting);
    if (!TABLE_NAME.matcher(name).matches() && !TABLE_ARN.matcher(name).matches()) {
      throw new IllegalArgumentException(setting + " '" + name + "' is no DynamoDB table name: it must have 3 to"
          + " 255 characters, each a letter, a digit, '_', '-' or '.' (or be the table's ARN)");
    }
    return name;
  }
}
