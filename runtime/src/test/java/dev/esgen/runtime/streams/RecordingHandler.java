package dev.esgen.runtime.streams;

import dev.esgen.runtime.feed.StreamRecordsHandler;
import java.util.ArrayList;
import java.util.List;
import software.amazon.awssdk.services.dynamodb.model.Record;

/**
 * Keeps every batch it is given, with the shard, the thread and whether it took it; fails the first
 * {@code failures} calls it gets.
 */
final class RecordingHandler implements StreamRecordsHandler {

  /** One call of {@link #handle}. */
  record Call(String shardId, List<Record> records, String thread, boolean taken) {}

  private final List<Call> calls = new ArrayList<>();
  private int failuresLeft;
  private final String failureMessage;

  RecordingHandler() {
    this(0, "");
  }

  RecordingHandler(int failures, String failureMessage) {
    this.failuresLeft = failures;
    this.failureMessage = failureMessage;
  }

  @Override
  public synchronized void handle(String shardId, List<Record> records) {
    boolean fail = failuresLeft > 0;
    calls.add(new Call(shardId, records, Thread.currentThread().getName(), !fail));
    if (fail) {
      failuresLeft--;
      throw new IllegalStateException(failureMessage);
    }
  }

  synchronized List<Call> calls() {
    return List.copyOf(calls);
  }

  /** The records of the calls that took them, in delivery order. */
  synchronized List<Record> taken() {
    return calls.stream().filter(Call::taken).flatMap(c -> c.records().stream()).toList();
  }

  /** The sort keys of the records taken, in delivery order. */
  List<String> takenKeys() {
    return StreamTable.keys(taken());
  }
}
