package dev.esgen.runtime.internal.keys;

import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.zip.CRC32;

/**
 * The key formats of the journal and snapshot tables for one aggregate type.
 *
 * <ul>
 *   <li>{@code pkey} = {@code {aggregate-name}-{shard}}, where {@code shard} is the CRC32 of the id's
 *       UTF-8 bytes (an unsigned 32-bit number) modulo the aggregate's shard count. CRC32 is fixed by
 *       ISO 3309 and {@link java.util.zip.CRC32}, unlike {@code String.hashCode} it is not an
 *       implementation detail, so a key computed today is found by any JVM and esgen version later.
 *       A stream lives in one partition; different streams spread over {@code shards} partitions.
 *   <li>{@code skey} = {@code {aggregate-name}-{aid}-{seq_nr}} with {@code seq_nr} zero-padded to 20
 *       digits (the width of {@code Long.MAX_VALUE}), so string order is seq order and a stream's keys are
 *       one range of the partition. The keys of another stream may sort inside that range: those of an id
 *       that is this one followed by {@code -} and digits ({@code 42-00000000000000000003} sorts between
 *       events 3 and 4 of {@code 42}), so a range read tells streams apart by their {@code aid}. The
 *       snapshot head row uses seq_nr 0.
 * </ul>
 *
 * <p>Changing the shard count or the aggregate name of stored data moves every key: both are part of
 * the stored format.
 *
 * <pre>{@code
 * JournalKeys keys = new JournalKeys("bank-account", 4);
 * keys.partitionKey("42");        // "bank-account-0"  (CRC32("42") % 4)
 * keys.sortKey("42", 7);          // "bank-account-42-00000000000000000007"
 * keys.headSortKey("42");         // "bank-account-42-00000000000000000000"
 * }</pre>
 */
public final class JournalKeys {

  /** The width of the zero-padded seq_nr in sort keys. */
  public static final int SEQ_NR_DIGITS = 20;

  private final String aggregateName;
  private final int shards;

  public JournalKeys(String aggregateName, int shards) {
    this.aggregateName = Objects.requireNonNull(aggregateName, "aggregateName");
    if (shards < 1) {
      throw new IllegalArgumentException("shards must be at least 1, was " + shards);
    }
    this.shards = shards;
  }

  /** The shard, from 0 to {@code shards - 1}, of the stream with id string {@code aid}. */
  public int shard(String aid) {
    CRC32 crc = new CRC32();
    crc.update(aid.getBytes(StandardCharsets.UTF_8));
    return (int) (crc.getValue() % shards);
  }

  /** The partition key of every item of the stream {@code aid}, in both tables. */
  public String partitionKey(String aid) {
    return aggregateName + "-" + shard(aid);
  }

  /** The sort key of event {@code seqNr} of stream {@code aid} (or of its snapshot taken at it). */
  public String sortKey(String aid, long seqNr) {
    if (seqNr < 0) {
      throw new IllegalArgumentException("seq_nr must not be negative, was " + seqNr);
    }
    String digits = Long.toString(seqNr);
    return sortKeyPrefix(aggregateName, aid) + "0".repeat(SEQ_NR_DIGITS - digits.length()) + digits;
  }

  /**
   * What every sort key of the stream {@code aid} of the aggregate type {@code aggregateName} starts with,
   * {@code {aggregate-name}-{aid}-}; the keys of the streams whose ids start with {@code {aid}-} start with
   * it too.
   */
  public static String sortKeyPrefix(String aggregateName, String aid) {
    return aggregateName + "-" + aid + "-";
  }

  /** The sort key of the stream's snapshot head row. */
  public String headSortKey(String aid) {
    return sortKey(aid, 0);
  }
}
