package dev.esgen.runtime.aggregate;

/**
 * How the tip layout manages a stream's tip item: when its events are calved into a batch item, and
 * whether it carries a snapshot. An append whose events alone pass a threshold writes them straight to
 * the batch item with the events the tip held, and leaves the tip without events: kept in the tip, they
 * would be billed again with every later append until it calved.
 *
 * <pre>{@code
 * TipPolicy policy = TipPolicy.defaults();                       // calve past 2 KB or 10 events, snapshot
 * TipPolicy larger = new TipPolicy(8 * 1024, 20, true);          // calve past 8 KB or 20 events
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

  /**
   * The default byte threshold: 2 KB of events. Chosen from the measured curve of write units per append
   * against stream length in {@code docs/layouts.md}: an {@code UpdateItem} is billed on the whole tip, so
   * a small tip keeps every append cheap, and with the snapshot it stays within one read unit.
   */
  public static final int DEFAULT_MAX_BYTES = 2 * 1024;

  /**
   * The default event threshold: 10 events. For small events it calves before the byte threshold, which
   * measured cheapest per append (calving every 10 appends, a tip under 2 KB); see {@code docs/layouts.md}.
   */
  public static final int DEFAULT_MAX_EVENTS = 10;

  /**
   * Checks the policy.
   *
   * @throws IllegalArgumentException when {@code maxBytes} is not 1 to 409,600 or {@code maxEvents} is negative
   */
  public TipPolicy {
    if (maxBytes < 1 || maxBytes > 409_600) {
      throw new IllegalArgumentException("tip maxBytes must be between 1 and 409600, was " + maxBytes);
    }
    if (maxEvents < 0) {
      throw new IllegalArgumentException("tip maxEvents must be 0 (no limit) or more, was " + maxEvents);
    }
  }

  /** Calve when the tip's events would pass 2 KB or 10 events; snapshot in the tip. */
  public static TipPolicy defaults() {
    return new TipPolicy(DEFAULT_MAX_BYTES, DEFAULT_MAX_EVENTS, true);
  }

  /** This policy without the snapshot: loads replay the stream's events. */
  public TipPolicy withoutSnapshot() {
    return new TipPolicy(maxBytes, maxEvents, false);
  }
}
