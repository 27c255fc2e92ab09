package dev.esgen.runtime.config;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.esgen.runtime.codec.EsgenJson;
import dev.esgen.runtime.internal.AggregateNames;
import dev.esgen.runtime.internal.TableNames;
import dev.esgen.runtime.metrics.StoreListener;
import java.time.Clock;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Settings of a {@link dev.esgen.runtime.DynamoDbEventStore}: table names, clock, JSON mapper, retry policy, whether
 * the journal carries the optional {@code aid}/{@code seq_nr} index, the listener that hears what
 * each operation cost, how loads and lookups read (strongly consistent unless set otherwise, for the
 * store or per aggregate type) and the state cache (off unless set).
 *
 * <pre>{@code
 * StoreConfig config = StoreConfig.defaults()
 *     .withJournalTable("prod-journal")
 *     .withSnapshotTable("prod-snapshot")
 *     .withTipTable("prod-streams")
 *     .withClock(Clock.systemUTC())
 *     .withListener(metrics -> log.debug("{}", metrics))
 *     .withReadConsistency("dashboard-tile", ReadConsistency.EVENTUAL)
 *     .withStateCache(StateCachePolicy.of(10_000, Duration.ofMinutes(5)));
 * EventStore store = DynamoDbEventStore.create(client, config);
 * }</pre>
 *
 * @param journalTable the table holding one item per event
 * @param snapshotTable the table holding each stream's head row and retained snapshots
 * @param clock stamps {@code occurred_at} on events and computes snapshot TTLs
 * @param objectMapper the mapper generated codecs use
 * @param retryPolicy the retry budget of every repository operation: attempts and deadline for conflicts,
 *     throttling and writes whose outcome is unknown
 * @param aidIndex whether {@link dev.esgen.runtime.provision.TableProvisioner} creates the journal's
 *     {@code aid}/{@code seq_nr} global secondary index; esgen never reads through it (loads are
 *     strongly consistent base-table reads), it exists for operators' ad-hoc queries and is billed on
 *     every write, so it is off by default
 * @param tipTable the table of the tip layout, holding each stream's tip item and calved batches
 * @param listener told about every repository operation with its requests, capacity and latency
 * @param readConsistency how loads and lookups read unless a call or {@code readConsistencyByType} says
 *     otherwise; {@link ReadConsistency#STRONG} by default
 * @param readConsistencyByType the read consistency of single aggregate types, by stored name: the
 *     default of their repositories
 * @param stateCache what the store remembers of the streams it read and wrote; off by default
 * @param positionsTable the table where a {@link dev.esgen.runtime.feed.ChangeFeed} keeps each
 *     projection's position in each stream
 *
 * <p>Each table name must be one DynamoDB takes: 3 to 255 characters of {@code a-z A-Z 0-9 _ - .}, or a
 * table's ARN ({@code arn:aws:dynamodb:region:account:table/name}); another is refused here, not by the
 * first request.
 */
public record StoreConfig(
    String journalTable,
    String snapshotTable,
    Clock clock,
    ObjectMapper objectMapper,
    RetryPolicy retryPolicy,
    boolean aidIndex,
    String tipTable,
    StoreListener listener,
    ReadConsistency readConsistency,
    Map<String, ReadConsistency> readConsistencyByType,
    StateCachePolicy stateCache,
    String positionsTable) {

  /**
   * Checks the settings.
   *
   * @throws IllegalArgumentException when a table name is one DynamoDB refuses, two tables share a name, or
   *     {@code readConsistencyByType} names no possible aggregate type
   */
  public StoreConfig {
    TableNames.require("journalTable", journalTable);
    TableNames.require("snapshotTable", snapshotTable);
    if (journalTable.equals(snapshotTable)) {
      throw new IllegalArgumentException("journal and snapshot tables must differ, both are '" + journalTable + "'");
    }
    Objects.requireNonNull(clock, "clock");
    Objects.requireNonNull(objectMapper, "objectMapper");
    Objects.requireNonNull(retryPolicy, "retryPolicy");
    TableNames.require("tipTable", tipTable);
    if (tipTable.equals(journalTable) || tipTable.equals(snapshotTable)) {
      throw new IllegalArgumentException("the tip table must differ from the journal and snapshot tables, is '"
          + tipTable + "'");
    }
    Objects.requireNonNull(listener, "listener");
    Objects.requireNonNull(readConsistency, "readConsistency");
    readConsistencyByType = Map.copyOf(readConsistencyByType);
    readConsistencyByType.keySet().forEach(StoreConfig::requireAggregateName);
    Objects.requireNonNull(stateCache, "stateCache");
    TableNames.require("positionsTable", positionsTable);
    if (positionsTable.equals(journalTable) || positionsTable.equals(snapshotTable) || positionsTable.equals(tipTable)) {
      throw new IllegalArgumentException("the positions table must differ from the event store's tables, is '"
          + positionsTable + "'");
    }
  }

  /**
   * Tables {@code journal}, {@code snapshot}, {@code streams} and {@code positions}, the UTC system
   * clock, esgen's JSON defaults, no listener, strongly consistent reads, no state cache.
   */
  public static StoreConfig defaults() {
    return new StoreConfig("journal", "snapshot", Clock.systemUTC(), EsgenJson.newObjectMapper(),
        RetryPolicy.defaults(), false, "streams", StoreListener.NONE, ReadConsistency.STRONG, Map.of(),
        StateCachePolicy.disabled(), "positions");
  }

  /** This configuration with {@code name} as the journal layout's table of events. */
  public StoreConfig withJournalTable(String name) {
    return new StoreConfig(name, snapshotTable, clock, objectMapper, retryPolicy, aidIndex, tipTable, listener,
        readConsistency, readConsistencyByType, stateCache, positionsTable);
  }

  /** This configuration with {@code name} as the table of head rows, snapshots, unique values and command records. */
  public StoreConfig withSnapshotTable(String name) {
    return new StoreConfig(journalTable, name, clock, objectMapper, retryPolicy, aidIndex, tipTable, listener,
        readConsistency, readConsistencyByType, stateCache, positionsTable);
  }

  /** This configuration with the clock that stamps events and ages cached states. */
  public StoreConfig withClock(Clock newClock) {
    return new StoreConfig(journalTable, snapshotTable, newClock, objectMapper, retryPolicy, aidIndex, tipTable,
        listener, readConsistency, readConsistencyByType, stateCache, positionsTable);
  }

  /** This configuration with the mapper the generated codecs write and read bodies with. */
  public StoreConfig withObjectMapper(ObjectMapper mapper) {
    return new StoreConfig(journalTable, snapshotTable, clock, mapper, retryPolicy, aidIndex, tipTable, listener,
        readConsistency, readConsistencyByType, stateCache, positionsTable);
  }

  /** This configuration with the budget of attempts and time every operation spends on retries. */
  public StoreConfig withRetryPolicy(RetryPolicy policy) {
    return new StoreConfig(journalTable, snapshotTable, clock, objectMapper, policy, aidIndex, tipTable, listener,
        readConsistency, readConsistencyByType, stateCache, positionsTable);
  }

  /**
   * This configuration with or without the journal's optional {@code aid}/{@code seq_nr} index, which
   * provisioning creates.
   */
  public StoreConfig withAidIndex(boolean enabled) {
    return new StoreConfig(journalTable, snapshotTable, clock, objectMapper, retryPolicy, enabled, tipTable, listener,
        readConsistency, readConsistencyByType, stateCache, positionsTable);
  }

  /** This configuration with {@code name} as the tip layout's table. */
  public StoreConfig withTipTable(String name) {
    return new StoreConfig(journalTable, snapshotTable, clock, objectMapper, retryPolicy, aidIndex, name, listener,
        readConsistency, readConsistencyByType, stateCache, positionsTable);
  }

  /** This configuration with the listener that hears of every operation, failed attempt and skipped snapshot. */
  public StoreConfig withListener(StoreListener newListener) {
    return new StoreConfig(journalTable, snapshotTable, clock, objectMapper, retryPolicy, aidIndex, tipTable,
        newListener, readConsistency, readConsistencyByType, stateCache, positionsTable);
  }

  /**
   * Loads and lookups of every aggregate type read with {@code consistency}, unless a call or
   * {@link #withReadConsistency(String, ReadConsistency)} says otherwise.
   */
  public StoreConfig withReadConsistency(ReadConsistency consistency) {
    return new StoreConfig(journalTable, snapshotTable, clock, objectMapper, retryPolicy, aidIndex, tipTable, listener,
        consistency, readConsistencyByType, stateCache, positionsTable);
  }

  /**
   * Loads and lookups of the aggregate type stored as {@code aggregateType} (its {@code @Aggregate} name)
   * read with {@code consistency}, unless a call says otherwise: the default of that type's repositories.
   */
  public StoreConfig withReadConsistency(String aggregateType, ReadConsistency consistency) {
    Map<String, ReadConsistency> byType = new HashMap<>(readConsistencyByType);
    byType.put(Objects.requireNonNull(aggregateType, "aggregateType"),
        Objects.requireNonNull(consistency, "consistency"));
    return new StoreConfig(journalTable, snapshotTable, clock, objectMapper, retryPolicy, aidIndex, tipTable, listener,
        readConsistency, byType, stateCache, positionsTable);
  }

  /** The store remembers streams as {@code policy} says; see {@link StateCachePolicy}. */
  public StoreConfig withStateCache(StateCachePolicy policy) {
    return new StoreConfig(journalTable, snapshotTable, clock, objectMapper, retryPolicy, aidIndex, tipTable, listener,
        readConsistency, readConsistencyByType, policy, positionsTable);
  }

  /** A {@link dev.esgen.runtime.feed.ChangeFeed} keeps its projections' positions in the table {@code name}. */
  public StoreConfig withPositionsTable(String name) {
    return new StoreConfig(journalTable, snapshotTable, clock, objectMapper, retryPolicy, aidIndex, tipTable, listener,
        readConsistency, readConsistencyByType, stateCache, name);
  }

  /**
   * A key of {@code readConsistencyByType} is an aggregate type's stored name: one that could not be one
   * (a class name such as {@code BankAccount}, say) would silently match no aggregate type, and its reads
   * would keep the store's default.
   */
  private static void requireAggregateName(String name) {
    if (!AggregateNames.isStoredName(name)) {
      throw new IllegalArgumentException("readConsistencyByType names '" + name + "', which is no aggregate type's"
          + " stored name: give @Aggregate(name), such as bank-account (lower-case letters and digits separated"
          + " by single '-'), not the class name");
    }
  }

  /** How loads and lookups of {@code aggregateType} read when a call does not say. */
  public ReadConsistency readConsistencyOf(String aggregateType) {
    return readConsistencyByType.getOrDefault(aggregateType, readConsistency);
  }
}
