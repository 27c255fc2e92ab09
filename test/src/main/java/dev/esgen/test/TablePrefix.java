package dev.esgen.test;

import java.util.Objects;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * The start of every table name one test class uses, so that test classes sharing a DynamoDB Local
 * (in parallel or one after another) never see each other's tables. {@link DynamoDbLocalExtension}
 * gives each test class a fresh one and deletes the tables that carry it after the class.
 *
 * <pre>{@code
 * StoreConfig config = StoreConfig.defaults()
 *     .withJournalTable(tables.name("journal"))      // e.g. "BankTest-3f9c2a1e-journal"
 *     .withSnapshotTable(tables.name("snapshot"))
 *     .withTipTable(tables.name("streams"));
 * }</pre>
 *
 * @param value the prefix itself, characters DynamoDB allows in table names and at most
 *     {@value #MAX_LENGTH} of them, so that the names built on it stay well within DynamoDB's 255
 */
public record TablePrefix(String value) {

  /** The longest prefix: leaves room for any table name a test needs within DynamoDB's 255 characters. */
  public static final int MAX_LENGTH = 64;

  private static final Pattern TABLE_NAME_CHARACTERS = Pattern.compile("[A-Za-z0-9_.-]*");
  private static final Pattern OTHER_CHARACTERS = Pattern.compile("[^A-Za-z0-9_.-]+");
  private static final int LABEL_LENGTH = 40;

  /** @throws IllegalArgumentException when {@code value} holds a character DynamoDB refuses, or is too long */
  public TablePrefix {
    Objects.requireNonNull(value, "value");
    if (!TABLE_NAME_CHARACTERS.matcher(value).matches()) {
      throw new IllegalArgumentException("table name prefix '" + value
          + "' may only hold the characters DynamoDB allows in table names: a-z, A-Z, 0-9, '_', '-' and '.'");
    }
    if (value.length() > MAX_LENGTH) {
      throw new IllegalArgumentException("table name prefix '" + value + "' is longer than " + MAX_LENGTH
          + " characters");
    }
  }

  /**
   * A prefix no other call returns: {@code label} with the characters DynamoDB refuses replaced and cut to
   * 40 characters, then a random part, for example {@code BankTest-3f9c2a1e-}.
   */
  public static TablePrefix fresh(String label) {
    String readable = OTHER_CHARACTERS.matcher(label).replaceAll("-");
    if (readable.length() > LABEL_LENGTH) {
      readable = readable.substring(0, LABEL_LENGTH);
    }
    return new TablePrefix(readable + "-" + UUID.randomUUID().toString().substring(0, 8) + "-");
  }

  /** The table name {@code base} with this prefix, for example {@code BankTest-3f9c2a1e-journal}. */
  public String name(String base) {
    return value + base;
  }

  /** Whether {@code tableName} carries this prefix. */
  public boolean owns(String tableName) {
    return tableName.startsWith(value);
  }
}
