package dev.esgen.runtime.streams;

import java.util.List;

/**
 * What one {@link StreamPoller#pollOnce()} did.
 *
 * <pre>{@code
 * PollResult result = poller.pollOnce();
 * if (!result.moreToRead()) {
 *   Thread.sleep(1000);
 * }
 * }</pre>
 *
 * @param records how many records the handler took (in {@code batches} calls)
 * @param batches how many batches the handler took
 * @param finishedShards the shards finished by this poll: closed and every record handled
 * @param failingShards the shards whose batch failed (handler or read) or waits for its retry
 * @param leaseHeld false when another poller of the same consumer held the lease at the start of the poll
 *     (nothing was read), or took it over during the poll (the counts say what was handed over before)
 * @param moreToRead whether a further poll at once is likely to find records (a batch was delivered, a
 *     shard finished, or a closed shard is not read to its end yet)
 */
public record PollResult(int records, int batches, List<String> finishedShards, List<String> failingShards,
    boolean leaseHeld, boolean moreToRead) {

  /** Keeps copies of the shard lists. */
  public PollResult {
    finishedShards = List.copyOf(finishedShards);
    failingShards = List.copyOf(failingShards);
  }
}
