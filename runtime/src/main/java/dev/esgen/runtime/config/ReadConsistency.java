package dev.esgen.runtime.config;

/**
 * How a load or lookup reads DynamoDB: strongly consistent (sees every write that completed before it
 * started) or eventually consistent (may miss writes of the last moment, usually under a second, and
 * costs half the read units).
 *
 * <p>Strong is the default everywhere. Eventual is safe for a read whose result only feeds a write that
 * is conditioned on the version it read (a stale read then fails that condition and is retried), and for
 * reads that may lag, such as a screen refreshed now and then. It is not safe for a read that must see
 * the caller's own last write. See {@code docs/operations.md}.
 *
 * <pre>{@code
 * StoreConfig config = StoreConfig.defaults().withReadConsistency(ReadConsistency.EVENTUAL);    // store default
 * StoreConfig byType = StoreConfig.defaults().withReadConsistency("order", ReadConsistency.EVENTUAL); // one type
 * Order order = orders.load(id, ReadOptions.eventual());           // one call; orders: an OrderRepository
 * }</pre>
 */
public enum ReadConsistency {

  /** Strongly consistent reads ({@code ConsistentRead = true}): the default. */
  STRONG,

  /** Eventually consistent reads: half the read units, may miss the newest writes. */
  EVENTUAL
}
