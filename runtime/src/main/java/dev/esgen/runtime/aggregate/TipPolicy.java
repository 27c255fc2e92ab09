package dev.esgen.runtime.aggregate;

/**
 * How the tip layout manages a stream's tip item: when its events are calved into a batch item, and
 * whether it carries a snapshot.
 *
 * <pre>{@code
 * TipPolicy policy = TipPolicy.defaults();                       // 32 KB of events, no event limit, snapshot
 * TipPolicy small = new TipPolicy(8 * 1024, 20, true);           // calve at 8 KB or 20 events
 * TipPolicy eventsOnly = TipPolicy.defaults().withoutSnapshot(); // loads replay every event
 * }</pre>
 *
 * @param maxBytes calve when the tip's events would exceed this many bytes (DynamoDB's item-size
 *     rules); between 1 and 409,600. The snapshot and keys are not counted: a tip also holds a snapshot,
 *     so keep room for it below the 400 KB item limit
 * @param maxEvents calve when the tip would hold more than this many events; 0 for no event limit
 * @param snapshot whether every append rewrites the snapshot in the tip from the new state, so a load is
 *     one {@code GetItem}; without it (events-only) a load folds every event of the stream
 */
public record TipPolicy(int maxBytes, int maxEvents, boolean snapshot) {

  /** The default calving threshold: 32 KB of events. */
  public static final int DEFAULT_MAX_BYTES = 32 * 1024;

  public TipPolicy {
    if (maxBytes < 1 || maxBytes > 409_600) {
      throw new IllegalArgumentException("tip maxBytes must be between 1 and 409600, was " + maxBytes);
    }
    if (maxEvents < 0) {
      throw new IllegalArgumentException("tip maxEvents must be 0 (no limit) or more, was " + maxEvents);
    }
  }

  /** Calve at 32 KB of events, no event limit, snapshot in the tip. */
  public static TipPolicy defaults() {
    return new TipPolicy(DEFAULT_MAX_BYTES, 0, true);
  }

  /** This policy without the snapshot: loads replay the stream's events. */
  public TipPolicy withoutSnapshot() {
    return new TipPolicy(maxBytes, maxEvents, false);
  }
}
