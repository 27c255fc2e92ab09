package dev.esgen.runtime.feed;

import java.util.Objects;

/**
 * Events {@code fromSeqNr .. toSeqNr} of a stream that a projection needed before the events a batch of
 * stream records held, and that the {@link ChangeFeed} therefore read from the store: their records were
 * lost, late, trimmed after 24 hours, or the projection is new. Frequent gaps point at a transport that
 * drops or reorders records.
 *
 * <pre>{@code
 * public void onGapRead(GapRead gap) {
 *   gapsRead.increment(gap.toSeqNr() - gap.fromSeqNr() + 1);
 * }
 * }</pre>
 *
 * @param projection the projection's name
 * @param aggregateType the aggregate's stored name
 * @param aggregateId the stream's id string
 * @param fromSeqNr the first event read
 * @param toSeqNr the last event read
 */
public record GapRead(String projection, String aggregateType, String aggregateId, long fromSeqNr, long toSeqNr) {

  /** Requires the projection, the aggregate type and id. */
  public GapRead {
    Objects.requireNonNull(projection, "projection");
    Objects.requireNonNull(aggregateType, "aggregateType");
    Objects.requireNonNull(aggregateId, "aggregateId");
  }
}
