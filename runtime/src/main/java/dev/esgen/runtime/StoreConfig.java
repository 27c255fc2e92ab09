package dev.esgen.runtime;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.esgen.runtime.codec.EsgenJson;
import java.time.Clock;
import java.util.Objects;

/**
 * Settings of a {@link DynamoDbEventStore}: table names, clock, JSON mapper, retry policy and whether
 * the journal carries the optional {@code aid}/{@code seq_nr} index.
 *
 * <pre>{@code
 * StoreConfig config = StoreConfig.defaults()
 *     .withJournalTable("prod-journal")
 *     .withSnapshotTable("prod-snapshot")
 *     .withClock(Clock.systemUTC());
 * EventStore store = DynamoDbEventStore.create(client, config);
 * }</pre>
 *
 * @param journalTable the table holding one item per event
 * @param snapshotTable the table holding each stream's head row and retained snapshots
 * @param clock stamps {@code occurred_at} on events and computes snapshot TTLs
 * @param objectMapper the mapper generated codecs use
 * @param retryPolicy how {@code transact} retries after conflicts
 * @param aidIndex whether {@link dev.esgen.runtime.provision.TableProvisioner} creates the journal's
 *     {@code aid}/{@code seq_nr} global secondary index; esgen never reads through it (loads are
 *     strongly consistent base-table reads), it exists for operators' ad-hoc queries and is billed on
 *     every write, so it is off by default
 */
public record StoreConfig(
    String journalTable,
    String snapshotTable,
    Clock clock,
    ObjectMapper objectMapper,
    RetryPolicy retryPolicy,
    boolean aidIndex) {

  public StoreConfig {
    Objects.requireNonNull(journalTable, "journalTable");
    Objects.requireNonNull(snapshotTable, "snapshotTable");
    if (journalTable.equals(snapshotTable)) {
      throw new IllegalArgumentException("journal and snapshot tables must differ, both are '" + journalTable + "'");
    }
    Objects.requireNonNull(clock, "clock");
    Objects.requireNonNull(objectMapper, "objectMapper");
    Objects.requireNonNull(retryPolicy, "retryPolicy");
  }

  /** Tables {@code journal} and {@code snapshot}, the UTC system clock, esgen's JSON defaults. */
  public static StoreConfig defaults() {
    return new StoreConfig(
        "journal", "snapshot", Clock.systemUTC(), EsgenJson.newObjectMapper(), RetryPolicy.defaults(), false);
  }

  public StoreConfig withJournalTable(String name) {
    return new StoreConfig(name, snapshotTable, clock, objectMapper, retryPolicy, aidIndex);
  }

  public StoreConfig withSnapshotTable(String name) {
    return new StoreConfig(journalTable, name, clock, objectMapper, retryPolicy, aidIndex);
  }

  public StoreConfig withClock(Clock newClock) {
    return new StoreConfig(journalTable, snapshotTable, newClock, objectMapper, retryPolicy, aidIndex);
  }

  public StoreConfig withObjectMapper(ObjectMapper mapper) {
    return new StoreConfig(journalTable, snapshotTable, clock, mapper, retryPolicy, aidIndex);
  }

  public StoreConfig withRetryPolicy(RetryPolicy policy) {
    return new StoreConfig(journalTable, snapshotTable, clock, objectMapper, policy, aidIndex);
  }

  public StoreConfig withAidIndex(boolean enabled) {
    return new StoreConfig(journalTable, snapshotTable, clock, objectMapper, retryPolicy, enabled);
  }
}
