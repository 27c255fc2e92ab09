package dev.esgen.runtime.internal.keys;

import dev.esgen.runtime.aggregate.LayoutKind;
import dev.esgen.runtime.index.IndexColumn;
import java.nio.charset.StandardCharsets;

/**
 * The stored names and key formats of index columns, shared by every storage layout.
 *
 * <ul>
 *   <li>An {@code @Indexed} column in slot {@code i} is an attribute {@code ix{i}_pk} on the aggregate's
 *       head row holding {@code {aggregate}#{column}#{value}}; the global secondary index
 *       {@code esgen-index-{i}} has it as hash key and {@code aid} as range key, projection KEYS_ONLY.
 *       Slots are shared by all aggregate types of a table: the aggregate and column names in the key
 *       keep them apart.
 *   <li>A {@code @Unique} value is a reservation item with {@code pkey} =
 *       {@code {aggregate}#{column}#{normalised value}}, {@code skey} = {@value #UNIQUE_SORT_KEY} and
 *       {@code aid} = the holder's id.
 * </ul>
 * Aggregate names are lower-case letters, digits and {@code -}, so these keys never meet a stream's
 * {@code {aggregate}-{shard}} partition key.
 *
 * <pre>{@code
 * IndexKeys.valueKey("bank-account", "owner", "Ann");   // "bank-account#owner#Ann"
 * IndexKeys.slotAttribute(0);                           // "ix0_pk"
 * IndexKeys.slotIndexName(0);                           // "esgen-index-0"
 * }</pre>
 */
public final class IndexKeys {

  /** Separates aggregate, column and value in keys. */
  public static final String SEPARATOR = "#";

  /** The partition key attribute of a reservation item, the same as the tables' own. */
  public static final String PKEY = "pkey";

  /** The sort key attribute of a reservation item, the same as the tables' own. */
  public static final String SKEY = "skey";

  /** The holder's id on a reservation item, and the range key of every slot index. */
  public static final String AID = "aid";

  /** The sort key of every reservation item. */
  public static final String UNIQUE_SORT_KEY = "unique";

  /** DynamoDB's limit on the size of a partition key value, which index and reservation keys are. */
  public static final int KEY_LIMIT_BYTES = 2048;

  /** DynamoDB allows 20 global secondary indexes per table (a default quota). */
  public static final int MAX_SLOTS = 20;

  /** The tip table's listing index takes one of its 20 global secondary indexes. */
  public static final int MAX_TIP_SLOTS = MAX_SLOTS - 1;

  /** The most {@code @Indexed} columns an aggregate stored in {@code layout} can use. */
  public static int maxSlots(LayoutKind layout) {
    return layout == LayoutKind.TIP ? MAX_TIP_SLOTS : MAX_SLOTS;
  }

  private IndexKeys() {}

  /**
   * Whether {@code value} of {@code column}, normalised, makes a key within {@link #KEY_LIMIT_BYTES} that
   * has a UTF-8 form ({@link KeyStrings}): appends refuse any other, so no aggregate can hold it and a
   * lookup of it needs no request.
   */
  public static boolean fits(String aggregateName, IndexColumn column, String value) {
    String normalized = column.normalize(value);
    return KeyStrings.unpairedSurrogate(normalized) < 0
        && valueKey(aggregateName, column.name(), normalized).getBytes(StandardCharsets.UTF_8).length <= KEY_LIMIT_BYTES;
  }

  /** {@code {aggregate}#{column}#{value}}. */
  public static String valueKey(String aggregateName, String column, String value) {
    return aggregateName + SEPARATOR + column + SEPARATOR + value;
  }

  /** The head-row attribute holding the value key of the column in {@code slot}. */
  public static String slotAttribute(int slot) {
    return "ix" + slot + "_pk";
  }

  /** The global secondary index over {@link #slotAttribute(int)}. */
  public static String slotIndexName(int slot) {
    return "esgen-index-" + slot;
  }
}
