package dev.esgen.runtime.tip;

import java.util.Objects;

/**
 * The keys of the tip layout: the stream name as partition key, an event index as sort key.
 *
 * <p>The stream name is {@code {aggregate-name}-{aid}}: all items of a stream share it, so a stream is
 * one item collection and its batches sort by index. The tip sits at {@link #TIP_INDEX}, above every
 * batch. There are no shards: each stream is its own partition key value already.
 *
 * <pre>{@code
 * TipKeys keys = new TipKeys("bank-account");
 * keys.streamName("42");     // "bank-account-42"
 * }</pre>
 */
public final class TipKeys {

  /** The sort key of a stream's tip item: the largest index, above every batch. */
  public static final long TIP_INDEX = Long.MAX_VALUE;

  private final String aggregateName;

  public TipKeys(String aggregateName) {
    this.aggregateName = Objects.requireNonNull(aggregateName, "aggregateName");
  }

  /** The partition key of every item of the stream {@code aid}. */
  public String streamName(String aid) {
    return aggregateName + "-" + aid;
  }
}
