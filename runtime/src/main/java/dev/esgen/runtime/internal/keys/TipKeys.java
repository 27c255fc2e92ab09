package dev.esgen.runtime.internal.keys;

import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.zip.CRC32;

/**
 * The keys of the tip layout: the stream name as partition key, an event index as sort key.
 *
 * <p>The stream name is {@code {aggregate-name}#{aid}}: all items of a stream share it, so a stream is
 * one item collection and its batches sort by index. Aggregate names cannot hold {@code #}, so the first
 * {@code #} ends the name and the streams of two aggregate types never meet, whatever their ids hold
 * (tip format 2; format 1 joined them with {@code -}, which names may contain). The tip sits at {@link #TIP_INDEX}, above every
 * batch. There are no shards: each stream is its own partition key value already.
 *
 * <p>To list an aggregate type, every tip also carries a listing key {@code {aggregate-name}-{shard}},
 * the hash key of the global secondary index {@link #LISTING_INDEX}. The shard is the one the journal
 * layout computes for the id (CRC32 of its UTF-8 bytes modulo the aggregate's shards), so the creations
 * of one type spread over {@code shards} index partitions instead of one.
 *
 * <pre>{@code
 * TipKeys keys = new TipKeys("bank-account");
 * keys.streamName("42");        // "bank-account#42"
 * keys.listingKey("42", 4);     // "bank-account-0"  (CRC32("42") % 4)
 * }</pre>
 */
public final class TipKeys {

  /** The sort key of a stream's tip item: the largest index, above every batch. */
  public static final long TIP_INDEX = Long.MAX_VALUE;

  /** The global secondary index over {@link dev.esgen.runtime.internal.tip.TipAttributes#LISTING} and
   * {@link dev.esgen.runtime.internal.tip.TipAttributes#AID}. */
  public static final String LISTING_INDEX = "esgen-tip-listing";

  private final String aggregateName;

  public TipKeys(String aggregateName) {
    this.aggregateName = Objects.requireNonNull(aggregateName, "aggregateName");
  }

  /** The separator between aggregate name and id in stream names: a character names cannot hold. */
  public static final String STREAM_SEPARATOR = "#";

  /** The partition key of every item of the stream {@code aid}. */
  public String streamName(String aid) {
    return aggregateName + STREAM_SEPARATOR + aid;
  }

  /** The listing key of the stream {@code aid}: {@code {aggregate-name}-{shard}}. */
  public String listingKey(String aid, int shards) {
    return listingKey(shard(aid, shards));
  }

  /** The listing key of shard {@code shard}. */
  public String listingKey(int shard) {
    return aggregateName + "-" + shard;
  }

  /** The shard of {@code aid}: the same function as the journal layout's. */
  public static int shard(String aid, int shards) {
    CRC32 crc = new CRC32();
    crc.update(aid.getBytes(StandardCharsets.UTF_8));
    return (int) (crc.getValue() % shards);
  }
}
