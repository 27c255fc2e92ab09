package dev.esgen.runtime.aggregate;

import dev.esgen.runtime.error.InvalidIdException;
import dev.esgen.runtime.internal.keys.IndexKeys;
import dev.esgen.runtime.internal.keys.JournalKeys;
import dev.esgen.runtime.internal.keys.KeyStrings;
import dev.esgen.runtime.internal.keys.TipKeys;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * Which id strings an aggregate type can store: every DynamoDB key of a stream is built from its id
 * string, and DynamoDB limits key values to 2,048 bytes (partition keys) and 1,024 bytes (sort keys and
 * the range keys of secondary indexes), counted in UTF-8. Generated {@code FooRepository.Keys.idString} checks its
 * result here, so a bad id fails with {@link InvalidIdException} before any request is sent.
 *
 * <ul>
 *   <li>{@link LayoutKind#JOURNAL}: the sort key {@code {aggregate-name}-{aid}-{seq_nr, 20 digits}} must fit
 *       in 1,024 bytes, so an id may have 1,024 minus the name's bytes minus 22.
 *   <li>{@link LayoutKind#TIP}: {@code aid} is the range key of the tip's listing and slot indexes, so an
 *       id may have 1,024 bytes (the stream name built from it is a partition key, with room to spare).
 *   <li>An empty id is refused in both: DynamoDB refuses empty key values.
 *   <li>So is an id with half of a surrogate pair but not its other half: it has no UTF-8 form, and Java
 *       would store a {@code ?} in its place, giving two different ids one stream.
 * </ul>
 *
 * <pre>{@code
 * AggregateIds.maxBytes("bank-account", LayoutKind.JOURNAL);            // 990
 * AggregateIds.maxBytes("bank-account", LayoutKind.TIP);                // 1024
 * AggregateIds.requireValid("bank-account", LayoutKind.JOURNAL, "42");  // "42"
 * AggregateIds.requireValid("bank-account", LayoutKind.JOURNAL, "");    // throws InvalidIdException
 * }</pre>
 */
public final class AggregateIds {

  /** DynamoDB's limit on the size of a sort key value, and of a secondary index's range key value. */
  public static final int SORT_KEY_LIMIT_BYTES = 1024;

  private AggregateIds() {}

  /**
   * The most UTF-8 bytes an id string of the aggregate type {@code aggregateName} may have in
   * {@code layout}: the tightest of the limits of the keys built from it.
   */
  public static int maxBytes(String aggregateName, LayoutKind layout) {
    Objects.requireNonNull(aggregateName, "aggregateName");
    Objects.requireNonNull(layout, "layout");
    int limit = switch (layout) {
      // The sort key of an empty id is everything of the sort key but the id (the seq_nr has a fixed width).
      case JOURNAL -> SORT_KEY_LIMIT_BYTES - utf8Length(new JournalKeys(aggregateName, 1).sortKey("", 0));
      case TIP -> Math.min(
          SORT_KEY_LIMIT_BYTES,
          IndexKeys.KEY_LIMIT_BYTES - utf8Length(new TipKeys(aggregateName).streamName("")));
    };
    return Math.max(0, limit);
  }

  /**
   * {@code id} when the aggregate type {@code aggregateName} can store it in {@code layout}.
   *
   * @throws InvalidIdException when {@code id} is empty, has more UTF-8 bytes than
   *     {@link #maxBytes(String, LayoutKind)}, or has no UTF-8 form
   */
  public static String requireValid(String aggregateName, LayoutKind layout, String id) {
    Objects.requireNonNull(id, "id");
    int unpaired = KeyStrings.unpairedSurrogate(id);
    if (unpaired >= 0) {
      throw InvalidIdException.notUnicode(aggregateName, id, unpaired, maxBytes(aggregateName, layout));
    }
    if (!id.isEmpty() && fitsCountedAtMost(aggregateName, layout, id)) {
      return id;
    }
    int limit = maxBytes(aggregateName, layout);
    if (id.isEmpty()) {
      throw new InvalidIdException(aggregateName, id, 0, limit);
    }
    int size = utf8Length(id);
    if (size > limit) {
      throw new InvalidIdException(aggregateName, id, size, limit);
    }
    return id;
  }

  /**
   * Whether every key built from {@code id} fits even if each char of the name and the id takes the
   * most UTF-8 bytes a char can (3; a surrogate pair takes 4 for its two): true for all but very long ids,
   * which then need no key built nor bytes counted. Generated repositories check their id on every
   * call, several times per operation.
   */
  private static boolean fitsCountedAtMost(String aggregateName, LayoutKind layout, String id) {
    long nameAndId = 3L * aggregateName.length() + 3L * id.length();
    return switch (layout) {
      // {name}-{id}-{seq_nr, 20 digits}, the longest key of the journal layout
      case JOURNAL -> nameAndId + 2 + JournalKeys.SEQ_NR_DIGITS <= SORT_KEY_LIMIT_BYTES;
      // the id itself as an index range key; {name}#{id} as the tip's partition key
      case TIP -> 3L * id.length() <= SORT_KEY_LIMIT_BYTES
          && nameAndId + TipKeys.STREAM_SEPARATOR.length() <= IndexKeys.KEY_LIMIT_BYTES;
    };
  }

  private static int utf8Length(String s) {
    return s.getBytes(StandardCharsets.UTF_8).length;
  }
}
