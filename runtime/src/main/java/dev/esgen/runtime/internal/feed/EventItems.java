package dev.esgen.runtime.internal.feed;

import dev.esgen.runtime.internal.item.MetadataAttributes;
import dev.esgen.runtime.internal.journal.JournalAttributes;
import dev.esgen.runtime.internal.keys.TipKeys;
import dev.esgen.runtime.internal.tip.TipAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Finds the events in an item of esgen's tables, whichever layout wrote it: the one reader of stored items
 * that the change feed has, for stream records and for scanned tables alike.
 *
 * <ul>
 *   <li>An item keyed {@code pkey}/{@code skey} is a journal event item when its partition key is
 *       {@code {aggregate-name}-{shard}} and it has an {@code event_type}: one event. Snapshot rows, head
 *       rows, unique reservations and command records share those key names and are no events.
 *   <li>An item keyed {@code p}/{@code i} is a tip (at {@link TipKeys#TIP_INDEX}) or a calved batch: the
 *       events in its {@code e} list, numbered from {@code n - size(e) + 1} (tip) or {@code i + 1} (batch).
 *       A tip holds more than the events its latest write added; they are all offered, as the change feed
 *       drops what a projection has seen and a tip's older events fill gaps without a read.
 * </ul>
 *
 * <pre>{@code
 * Optional<String> type = EventItems.aggregateOf(record.dynamodb().keys());
 * Optional<StoredEvents> events = EventItems.parse(record.dynamodb().newImage(), registered::contains);
 * }</pre>
 */
public final class EventItems {

  private EventItems() {}

  /**
   * The aggregate type whose event item {@code keys} would be the keys of; empty when they are the keys
   * of no event item (a reservation, a command record, another table's item).
   */
  public static Optional<String> aggregateOf(Map<String, AttributeValue> keys) {
    AttributeValue pkey = keys.get(JournalAttributes.PKEY);
    if (pkey != null && keys.containsKey(JournalAttributes.SKEY)) {
      return journalAggregate(pkey.s());
    }
    AttributeValue stream = keys.get(TipAttributes.STREAM);
    if (stream != null && keys.containsKey(TipAttributes.INDEX) && stream.s() != null) {
      int separator = stream.s().indexOf(TipKeys.STREAM_SEPARATOR);
      return separator > 0 ? Optional.of(stream.s().substring(0, separator)) : Optional.empty();
    }
    return Optional.empty();
  }

  /**
   * The events {@code item} holds, if it is an event item of an aggregate type {@code wanted} accepts;
   * empty for any other item.
   *
   * @throws ItemShapeException when the item is keyed as an event item of a wanted type but lacks what
   *     such an item has
   */
  public static Optional<StoredEvents> parse(Map<String, AttributeValue> item, Predicate<String> wanted) {
    Optional<String> aggregate = aggregateOf(item).filter(wanted);
    if (aggregate.isEmpty()) {
      return Optional.empty();
    }
    return item.containsKey(JournalAttributes.PKEY)
        ? journalEvent(aggregate.get(), item)
        : Optional.of(tipEvents(aggregate.get(), item));
  }

  /** {@code bank-account} of {@code bank-account-3}; empty when the key does not end in {@code -{digits}}. */
  private static Optional<String> journalAggregate(String pkey) {
    if (pkey == null) {
      return Optional.empty();
    }
    int dash = pkey.lastIndexOf('-');
    if (dash < 1 || dash == pkey.length() - 1 || !pkey.substring(dash + 1).chars().allMatch(Character::isDigit)) {
      return Optional.empty();
    }
    return Optional.of(pkey.substring(0, dash));
  }

  private static Optional<StoredEvents> journalEvent(String aggregate, Map<String, AttributeValue> item) {
    if (!item.containsKey(JournalAttributes.EVENT_TYPE)) {
      return Optional.empty();
    }
    AttributeValue aid = item.get(JournalAttributes.AID);
    if (aid == null || aid.s() == null) {
      throw new ItemShapeException(aggregate, "<unknown>", "a journal event item without " + JournalAttributes.AID);
    }
    long seqNr = number(aggregate, aid.s(), item, JournalAttributes.SEQ_NR, "journal event item");
    if (seqNr < 1) {
      throw new ItemShapeException(aggregate, aid.s(), "a journal event item with seq_nr " + seqNr);
    }
    StoredEvent event = new StoredEvent(seqNr, item.get(JournalAttributes.EVENT_TYPE).s(),
        item.get(JournalAttributes.EVENT_VERSION), string(item.get(JournalAttributes.OCCURRED_AT)), item.get(JournalAttributes.METADATA),
        item.get(JournalAttributes.PAYLOAD), MetadataAttributes.JOURNAL);
    return Optional.of(new StoredEvents(aggregate, aid.s(), List.of(event)));
  }

  private static StoredEvents tipEvents(String aggregate, Map<String, AttributeValue> item) {
    String stream = item.get(TipAttributes.STREAM).s();
    String aid = stream.substring(aggregate.length() + TipKeys.STREAM_SEPARATOR.length());
    boolean tip = TipKeys.TIP_INDEX == number(aggregate, aid, item, TipAttributes.INDEX, "tip table item");
    String what = tip ? "tip" : "batch";
    List<AttributeValue> events = list(aggregate, aid, item, TipAttributes.EVENTS, what);
    List<AttributeValue> cases = list(aggregate, aid, item, TipAttributes.CASES, what);
    long next = number(aggregate, aid, item, TipAttributes.NEXT, what);
    long first = tip ? next - events.size() : number(aggregate, aid, item, TipAttributes.INDEX, what);
    if (events.size() != cases.size() || first < 0 || first + events.size() != next) {
      throw new ItemShapeException(aggregate, aid, "the " + what + " holds " + events.size() + " events and "
          + cases.size() + " type names, from index " + first + " to " + next);
    }
    List<StoredEvent> stored = new ArrayList<>(events.size());
    for (int k = 0; k < events.size(); k++) {
      Map<String, AttributeValue> event = events.get(k).hasM() ? events.get(k).m() : Map.of();
      stored.add(new StoredEvent(first + k + 1, cases.get(k).s(), event.get(TipAttributes.EVENT_VERSION),
          string(event.get(TipAttributes.TIMESTAMP)), event.get(TipAttributes.METADATA), event.get(TipAttributes.DATA),
          MetadataAttributes.TIP));
    }
    return new StoredEvents(aggregate, aid, stored);
  }

  private static long number(
      String aggregate, String aid, Map<String, AttributeValue> item, String name, String what) {
    AttributeValue value = item.get(name);
    try {
      if (value != null && value.n() != null) {
        return Long.parseLong(value.n());
      }
    } catch (NumberFormatException e) {
      // Reported below: a number DynamoDB holds that does not fit a long is no seq_nr esgen wrote.
    }
    throw new ItemShapeException(aggregate, aid, "a " + what + " without a whole number in " + name);
  }

  private static List<AttributeValue> list(
      String aggregate, String aid, Map<String, AttributeValue> item, String name, String what) {
    AttributeValue value = item.get(name);
    if (value == null || !value.hasL()) {
      throw new ItemShapeException(aggregate, aid, "a " + what + " without the list " + name);
    }
    return value.l();
  }

  private static String string(AttributeValue value) {
    return value == null ? null : value.s();
  }
}
