package dev.esgen.runtime.internal.streams;

import java.util.Objects;
import software.amazon.awssdk.services.dynamodb.model.ShardIteratorType;

/**
 * How far a consumer has read one shard: the sequence number of the last record its handler took, and
 * whether the shard is finished (closed, and every record of it handled).
 *
 * <p>Until the first record is handled there is no sequence number; {@code startAt} then says where
 * reading begins ({@link ShardIteratorType#TRIM_HORIZON}, or {@link ShardIteratorType#LATEST} for a shard
 * that was open when a consumer starting at the latest record first looked at the stream).
 *
 * <pre>{@code
 * Checkpoint fresh = Checkpoint.unread("shardId-1", ShardIteratorType.TRIM_HORIZON);
 * Checkpoint later = fresh.after("000000000000000000042", false);
 * }</pre>
 *
 * @param sequenceNumber the last handled record's sequence number; {@code null} while none was handled
 */
public record Checkpoint(String shardId, String sequenceNumber, ShardIteratorType startAt, boolean finished) {

  public Checkpoint {
    Objects.requireNonNull(shardId, "shardId");
    Objects.requireNonNull(startAt, "startAt");
    if (startAt != ShardIteratorType.TRIM_HORIZON && startAt != ShardIteratorType.LATEST) {
      throw new IllegalArgumentException("a shard starts at TRIM_HORIZON or LATEST, not " + startAt);
    }
  }

  /** A shard nothing of which was handled yet, to be read from {@code startAt}. */
  public static Checkpoint unread(String shardId, ShardIteratorType startAt) {
    return new Checkpoint(shardId, null, startAt, false);
  }

  /** The checkpoint after a batch ending with {@code lastSequenceNumber} (or {@code null}: an empty batch). */
  public Checkpoint after(String lastSequenceNumber, boolean shardEnded) {
    return new Checkpoint(shardId, lastSequenceNumber == null ? sequenceNumber : lastSequenceNumber, startAt,
        shardEnded);
  }

  /** This checkpoint, marked finished: another poller of the consumer finished the shard. */
  public Checkpoint asFinished() {
    return new Checkpoint(shardId, sequenceNumber, startAt, true);
  }

  /** Whether a record was handled, so that reading goes on after {@link #sequenceNumber()}. */
  public boolean hasSequenceNumber() {
    return sequenceNumber != null;
  }
}
