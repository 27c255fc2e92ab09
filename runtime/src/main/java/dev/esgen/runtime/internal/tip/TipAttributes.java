package dev.esgen.runtime.internal.tip;

/**
 * The attribute names of the tip layout's table. They are one or two letters because DynamoDB counts
 * every attribute name, in every item and in every map inside a list, against item size and capacity.
 *
 * <p>Tip item: {@link #STREAM}, {@link #INDEX} (= {@link dev.esgen.runtime.internal.keys.TipKeys#TIP_INDEX}), {@link #VERSION},
 * {@link #NEXT}, {@link #APPENDED}, {@link #EVENTS}, {@link #CASES}, unless the
 * aggregate is events-only {@link #UNFOLD}, and for the indexes {@link #AID}, {@link #LISTING} and one
 * {@code ix{i}_pk} per non-null {@code @Indexed} value ({@link dev.esgen.runtime.internal.keys.IndexKeys}). Batch item: {@link #STREAM}, {@link #INDEX} (its first
 * event's index), {@link #NEXT}, {@link #EVENTS}, {@link #CASES}. An event is a map of
 * {@link #TIMESTAMP} and {@link #DATA}, above version 1 {@link #EVENT_VERSION}, on the first event of each
 * append {@link #APPEND_ID}, and with metadata {@link #METADATA}; the unfold a map of {@link #INDEX},
 * {@link #TIMESTAMP}, {@link #DATA} and, for codecs with a fingerprint, {@link #SCHEMA}.
 *
 * <pre>{@code
 * long version = Long.parseLong(tip.get(TipAttributes.VERSION).n());
 * }</pre>
 */
public final class TipAttributes {

  private TipAttributes() {}

  /** Partition key (S): the stream name, {@code {aggregate-name}#{aid}}. */
  public static final String STREAM = "p";

  /**
   * Sort key (N): {@link dev.esgen.runtime.internal.keys.TipKeys#TIP_INDEX} for the tip, the index of its first event for a batch.
   * Inside the unfold: the number of events the snapshot folds.
   */
  public static final String INDEX = "i";

  /** Tip: the optimistic-lock version (N), 1 after creation, +1 per append (not per event). */
  public static final String VERSION = "v";

  /** The index the next event will get (N): on the tip, the stream's event count; on a batch, its end. */
  public static final String NEXT = "n";

  /**
   * Tip: how many events the latest append added (N): the last ones of {@link #EVENTS}, or, when that list
   * is empty because the append wrote them straight to a batch item, the last ones of that batch.
   */
  public static final String APPENDED = "a";

  /** The events (L of M), oldest first; the first has the index {@code n - size}. */
  public static final String EVENTS = "e";

  /** The events' stored type names (L of S), parallel to {@link #EVENTS}. */
  public static final String CASES = "c";

  /** Tip: the snapshot (M) of the state after {@link #INDEX} events. */
  public static final String UNFOLD = "u";

  /**
   * Tip: the aggregate id's string form (S), written at creation. The range key of the listing index and
   * of every index slot, so it has the name those indexes share with the journal layout's head rows.
   */
  public static final String AID = "aid";

  /**
   * Tip: the listing key {@code {aggregate-name}-{shard}} (S), written at creation and never changed: the
   * hash key of the index {@link dev.esgen.runtime.internal.keys.TipKeys#LISTING_INDEX} that {@code listAll} reads.
   */
  public static final String LISTING = "lk";

  /** In an event or the unfold: when it was written, ISO-8601 from the store's clock (S). */
  public static final String TIMESTAMP = "t";

  /** In an event or the unfold: the JSON body from the generated codec (B). */
  public static final String DATA = "d";

  /**
   * In an event: the version of its stored shape (N), only when above 1; an event without it is at
   * version 1, as every event was before versions existed. (On the tip itself {@link #VERSION}, the same
   * letter, is the stream's optimistic-lock version.)
   */
  public static final String EVENT_VERSION = "v";

  /**
   * In the unfold: the snapshot codec's fingerprint of the state shape and handler code the snapshot was
   * written with (S); absent for codecs without one and for snapshots stored before it existed.
   */
  public static final String SCHEMA = "s";

  /**
   * In the first event of an append: the append's id (S, 22 characters), by which a writer whose request's
   * outcome was unknown recognises its own append.
   */
  public static final String APPEND_ID = "x";

  /**
   * In the events of an append that carried metadata: a map (M) of {@code co} (correlation id),
   * {@code ca} (causation id), {@code ac} (actor) (S) and {@code at} (further attributes, M of S).
   */
  public static final String METADATA = "m";
}
