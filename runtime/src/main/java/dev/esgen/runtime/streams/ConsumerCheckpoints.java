package dev.esgen.runtime.streams;

import dev.esgen.runtime.internal.streams.CheckpointStore;

/** Where a consumer's checkpoints are, as the poller's exceptions name them for whoever deletes them. */
final class ConsumerCheckpoints {

  private ConsumerCheckpoints() {}

  /** E.g. {@code partition key 'checkpoint#balances' of table 'checkpoints'}. */
  static String describe(String consumer, String checkpointTable) {
    return "partition key '" + CheckpointStore.partitionKey(consumer) + "' of table '" + checkpointTable + "'";
  }
}
