package dev.esgen.runtime.internal.streams;

import dev.esgen.runtime.error.FailureKind;
import dev.esgen.runtime.error.RedactedException;
import dev.esgen.runtime.feed.StreamRecordsHandler;
import dev.esgen.runtime.internal.retry.Failures;
import dev.esgen.runtime.streams.MissingStreamException;
import dev.esgen.runtime.streams.PollResult;
import dev.esgen.runtime.streams.StartPosition;
import dev.esgen.runtime.streams.StreamDataTrimmedException;
import dev.esgen.runtime.streams.StreamEndedException;
import dev.esgen.runtime.streams.StreamNotEnabledException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.dynamodb.model.LimitExceededException;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.Shard;
import software.amazon.awssdk.services.dynamodb.model.ShardIteratorType;
import software.amazon.awssdk.services.dynamodb.model.TrimmedDataAccessException;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

/**
 * One poll of a consumer: holds the lease, knows the stream's shards and the consumer's checkpoints,
 * reads one batch of every shard that may be read now, hands it to the handler and stores the
 * checkpoint after it.
 *
 * <p>A shard's state moves on only once its checkpoint is stored: when the handler throws, or the
 * checkpoint cannot be written, the same batch is sent again after a backoff, so nothing is skipped and
 * what is in memory never runs ahead of what a restart would find. Not thread-safe: the poller calls it
 * from one thread at a time.
 *
 * <pre>{@code
 * ShardCoordinator coordinator = new ShardCoordinator(streams, () -> streamArn,
 *     table -> TableStreams.currentStreamArn(dynamoDb, table), store, null, handler, settings, clock);
 * PollResult result = coordinator.poll();
 * }</pre>
 */
public final class ShardCoordinator {

  private static final Logger LOG = LoggerFactory.getLogger("dev.esgen.runtime.streams.StreamPoller");

  /**
   * How long DynamoDB Streams may say that the stream does not exist before the poller stops: it gives the
   * same answer for a stream that is not active yet, such as one enabled a moment ago.
   */
  private static final Duration STREAM_NOT_FOUND_GRACE = Duration.ofMinutes(1);

  /**
   * What the poller was configured with.
   *
   * @param shardRefreshInterval how often the stream's shards are listed again while nothing else asks for it
   */
  public record Settings(String consumer, StartPosition startPosition, int batchSize, RetryBackoff retryBackoff,
      Duration shardRefreshInterval) {

    public Settings {
      Objects.requireNonNull(consumer, "consumer");
      Objects.requireNonNull(startPosition, "startPosition");
      Objects.requireNonNull(retryBackoff, "retryBackoff");
      Objects.requireNonNull(shardRefreshInterval, "shardRefreshInterval");
    }
  }

  private final DynamoDbStreamsClient streams;
  private final Supplier<String> streamArnSource;
  private final Function<String, Optional<String>> currentStreamOfTable;
  private final CheckpointStore store;
  private final ShardLease lease;
  private final StreamRecordsHandler handler;
  private final Settings settings;
  private final Clock clock;

  private String streamArn;
  private Map<String, Checkpoint> checkpoints;
  private StartPosition startedAt;
  private String consumerStreamArn;
  private ShardLineage lineage;
  private Instant listedAt;
  private boolean relist;
  private Instant streamMissingSince;
  private final Map<String, ShardReader> readers = new HashMap<>();

  /**
   * @param currentStreamOfTable a table's enabled stream now, for the message of a stream that ended
   * @param lease the consumer's lease, or {@code null} to read without one
   */
  public ShardCoordinator(DynamoDbStreamsClient streams, Supplier<String> streamArnSource,
      Function<String, Optional<String>> currentStreamOfTable, CheckpointStore store, ShardLease lease,
      StreamRecordsHandler handler, Settings settings, Clock clock) {
    this.streams = Objects.requireNonNull(streams, "streams");
    this.streamArnSource = Objects.requireNonNull(streamArnSource, "streamArnSource");
    this.currentStreamOfTable = Objects.requireNonNull(currentStreamOfTable, "currentStreamOfTable");
    this.store = Objects.requireNonNull(store, "store");
    this.lease = lease;
    this.handler = Objects.requireNonNull(handler, "handler");
    this.settings = Objects.requireNonNull(settings, "settings");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /** Reads and delivers one batch of every shard that may be read now. */
  public PollResult poll() {
    return poll(() -> false);
  }

  /**
   * Reads and delivers one batch of every shard that may be read now, until {@code stopping} says to stop:
   * it is asked before each shard, so a poller being closed finishes the batch in hand and no other.
   */
  public PollResult poll(BooleanSupplier stopping) {
    if ((lease != null && !holdLease()) || !prepare()) {
      return new PollResult(0, 0, List.of(), List.of(), false, false);
    }
    int records = 0;
    int batches = 0;
    boolean moreToRead = false;
    boolean stopped = false;
    List<String> finished = new ArrayList<>();
    List<String> failing = new ArrayList<>();
    for (Shard shard : lineage.readable(checkpoints)) {
      if (stopping.getAsBoolean()) {
        stopped = true;
        break;
      }
      // A poll over many shards, or a slow handler, may outlast half the lease: it is renewed on the way, and
      // once another poller has taken it over, this one hands nothing more over.
      if (lease != null && !holdLease()) {
        return new PollResult(records, batches, finished, failing, false, false);
      }
      ShardPoll poll = poll(shard);
      records += poll.records();
      batches += poll.records() > 0 ? 1 : 0;
      moreToRead |= poll.moreToRead();
      if (poll.failing()) {
        failing.add(shard.shardId());
      }
      if (poll.finished()) {
        finished.add(shard.shardId());
      }
    }
    return new PollResult(records, batches, finished, failing, stillHeld(stopped), moreToRead);
  }

  /**
   * Whether the lease is still this poller's once a poll has handed its batches over: the last handler call
   * may have outlasted it. Failing to renew it then fails no poll (what was handed over is checkpointed),
   * and a poller being closed does not renew it just to give it up.
   */
  private boolean stillHeld(boolean stopped) {
    if (lease == null) {
      return true;
    }
    if (stopped) {
      return lease.held();
    }
    try {
      return holdLease();
    } catch (SdkException e) {
      LOG.debug("consumer {}: the lease could not be renewed after the poll; the next poll tries again",
          settings.consumer(), e);
      return lease.held();
    }
  }

  /** What one shard's part of a poll did. */
  private record ShardPoll(int records, boolean failing, boolean finished, boolean moreToRead) {

    static final ShardPoll FAILING = new ShardPoll(0, true, false, false);
  }

  /** Reads, delivers and checkpoints one batch of {@code shard}, unless its last failure's backoff lasts. */
  private ShardPoll poll(Shard shard) {
    String shardId = shard.shardId();
    ShardReader reader = readers.computeIfAbsent(shardId,
        id -> new ShardReader(streams, streamArn, id, settings.batchSize()));
    if (reader.backingOff(clock.instant())) {
      return ShardPoll.FAILING;
    }
    // No checkpoint: the shard was never read, and all of it comes after where the consumer started.
    Checkpoint checkpoint =
        checkpoints.getOrDefault(shardId, Checkpoint.unread(shardId, ShardIteratorType.TRIM_HORIZON));
    ShardReader.Batch batch;
    try {
      batch = reader.next(checkpoint);
    } catch (TrimmedDataAccessException e) {
      throw trimmed(shardId, checkpoint, e);
    } catch (ResourceNotFoundException e) {
      return shardNotFound(reader, shardId, checkpoint, e);
    } catch (SdkException e) {
      retryLater(reader, shardId, "reading", e);
      return ShardPoll.FAILING;
    }
    if (!batch.records().isEmpty() && !deliver(reader, shardId, batch)) {
      return ShardPoll.FAILING;
    }
    if (batch.records().isEmpty() && !batch.endsShard()) {
      reader.advance();
      // A closed shard may answer empty before its last records: read on at once.
      return new ShardPoll(0, false, false, ShardLineage.closed(shard));
    }
    Checkpoint next = checkpoint.after(batch.lastSequenceNumber(), batch.endsShard());
    try {
      if (!store.save(next, streamArn)) {
        LOG.info("consumer {}: shard {} was finished by another poller", settings.consumer(), shardId);
        next = next.asFinished();
      }
    } catch (SdkException e) {
      retryLater(reader, shardId, "storing the checkpoint of", e);
      return ShardPoll.FAILING;
    }
    checkpoints.put(shardId, next);
    reader.advance();
    LOG.debug("consumer {}: handled {} record(s) of shard {} up to sequence number {}", settings.consumer(),
        batch.records().size(), shardId, next.sequenceNumber());
    if (next.finished()) {
      LOG.info("consumer {}: shard {} is finished (last sequence number {})", settings.consumer(), shardId,
          next.sequenceNumber());
      readers.remove(shardId);
      relist = true;
    }
    return new ShardPoll(batch.records().size(), false, next.finished(), true);
  }

  /**
   * The stream to read: the source's (a fixed ARN, or the table's enabled stream). When the table has none
   * now but the consumer started on a stream, that one: switched off, it stays readable for 24 hours, and a
   * poller that takes the consumer over (after a lease change, a restart) reads it to its end as the poller
   * that read it before would have.
   */
  private String streamOfConsumer() {
    try {
      return streamArnSource.get();
    } catch (StreamNotEnabledException switchedOff) {
      if (consumerStreamArn == null) {
        throw switchedOff;
      }
      LOG.info("consumer {}: table {} has no stream now; reading the consumer's stream {} to its end",
          settings.consumer(), switchedOff.table(), consumerStreamArn);
      return consumerStreamArn;
    }
  }

  /** Forgets what is in memory, so that the next poll starts from the stored checkpoints. */
  private void reset() {
    streamArn = null;
    checkpoints = null;
    lineage = null;
    streamMissingSince = null;
    readers.clear();
  }

  /** Gives the lease up, if there is one and it is held. */
  public void releaseLease() {
    if (lease != null) {
      lease.release();
    }
  }

  private boolean holdLease() {
    boolean heldBefore = lease.held();
    boolean held;
    try {
      held = lease.hold();
    } catch (SdkException e) {
      // Thrown on, it fails the poll (unless the batches were handed over: see stillHeld), and the poller's
      // WARN names only the error: say which write failed. The message is DynamoDB's or the SDK's, about a
      // lease item that holds no record contents to quote.
      LOG.warn("consumer {}: the write of its lease (owner {}) to checkpoint table {} failed: {}: {}",
          settings.consumer(), lease.owner(), store.table(), type(e), e.getMessage());
      throw e;
    }
    if (held) {
      if (!heldBefore) {
        LOG.info("consumer {}: lease taken by {}", settings.consumer(), lease.owner());
      }
      return true;
    }
    if (heldBefore) {
      LOG.warn("consumer {}: lease lost by {}: another poller reads the stream now", settings.consumer(),
          lease.owner());
    }
    reset();
    return false;
  }

  /**
   * {@code failure}'s class, and DynamoDB's error code when that says more than the class (a throttle that
   * the SDK reports as a plain {@code DynamoDbException}, say).
   */
  private static String type(SdkException failure) {
    String code = Failures.describe(failure);
    String type = failure.getClass().getName();
    return code.equals(failure.getClass().getSimpleName()) ? type : type + " (" + code + ")";
  }

  /** Loads and lists what a poll needs; false when the lease was lost meanwhile, and nothing may be read. */
  private boolean prepare() {
    if (checkpoints == null) {
      CheckpointStore.ConsumerState state = store.load();
      checkpoints = new HashMap<>(state.checkpoints());
      startedAt = state.started().orElse(null);
      consumerStreamArn = state.streamArn().orElse(null);
      lineage = null;
    }
    if (streamArn == null) {
      streamArn = streamOfConsumer();
    }
    Instant now = clock.instant();
    if (lineage == null || relist || !now.isBefore(listedAt.plus(settings.shardRefreshInterval()))
        || lineage.readable(checkpoints).isEmpty()) {
      lineage = describe();
      listedAt = now;
      relist = false;
      if (startedAt == null) {
        // Listing may have taken longer than the lease (a stall): where the consumer starts is written by
        // the lease's holder only.
        if (lease != null && !holdLease()) {
          return false;
        }
        start();
      } else {
        checkStream();
      }
      checkLineage();
      if (lineage.ended(checkpoints)) {
        throw ended();
      }
    }
    return true;
  }

  /**
   * A consumer's first look at the stream: where it starts is written down before anything is read. A
   * shard that has another checkpoint by then was started by another poller of the consumer, which may
   * have read past its start since this one loaded the checkpoints: what is stored stands, and once that
   * poller has recorded the start, this one takes the stored state up instead of starting again. A write
   * that fails part way leaves nothing in memory: the next poll starts from what is stored.
   */
  private void start() {
    try {
      if (settings.startPosition() == StartPosition.LATEST) {
        for (Shard shard : lineage.shards()) {
          if (checkpoints.containsKey(shard.shardId())) {
            continue;
          }
          Checkpoint checkpoint = ShardLineage.closed(shard)
              ? Checkpoint.unread(shard.shardId(), ShardIteratorType.LATEST).asFinished()
              : Checkpoint.unread(shard.shardId(), ShardIteratorType.LATEST);
          if (store.saveStart(checkpoint, streamArn)) {
            checkpoints.put(shard.shardId(), checkpoint);
            continue;
          }
          CheckpointStore.ConsumerState stored = store.load();
          checkpoints = new HashMap<>(stored.checkpoints());
          if (stored.started().isPresent()) {
            startedAt = stored.started().get();
            consumerStreamArn = stored.streamArn().orElse(null);
            LOG.info("consumer {}: another poller started reading meanwhile; its checkpoints stand",
                settings.consumer());
            checkStream();
            return;
          }
        }
      }
      store.markStarted(settings.startPosition(), streamArn);
    } catch (RuntimeException e) {
      reset();
      throw e;
    }
    startedAt = settings.startPosition();
    consumerStreamArn = streamArn;
    LOG.info("consumer {} starts reading stream {} at {} ({} shard(s) listed)", settings.consumer(), streamArn,
        settings.startPosition(), lineage.shards().size());
  }

  /**
   * The consumer's checkpoints belong to the stream its start item records; with another stream they would
   * skip what that one holds and the first did not, so the poller stops. A start item that names no stream
   * (esgen always wrote one; this one was written by hand) is given this one, as a consumer without a start
   * item is.
   */
  private void checkStream() {
    if (consumerStreamArn == null) {
      store.markStarted(startedAt, streamArn);
      consumerStreamArn = streamArn;
      LOG.info("consumer {}: its start item named no stream; it reads stream {} from now on", settings.consumer(),
          streamArn);
    } else if (!consumerStreamArn.equals(streamArn)) {
      throw StreamEndedException.startedOnAnotherStream(settings.consumer(), store.table(), consumerStreamArn,
          streamArn, lineage.tableName());
    }
  }

  private void checkLineage() {
    List<Checkpoint> lost = lineage.unlistedUnfinished(checkpoints);
    if (!lost.isEmpty()) {
      Checkpoint first = lost.get(0);
      throw trimmed(first.shardId(), first, null);
    }
    for (Checkpoint gone : lineage.unlistedFinished(checkpoints)) {
      store.delete(gone.shardId());
      checkpoints.remove(gone.shardId());
      LOG.debug("consumer {}: forgot the checkpoint of shard {}, which the stream no longer lists",
          settings.consumer(), gone.shardId());
    }
  }

  /**
   * The stream's shards. DynamoDB Streams answers ResourceNotFound for a stream that is gone and for one
   * that is not active yet: the answer is passed on (the poll fails and is tried again) until the stream
   * has been missing for {@link #STREAM_NOT_FOUND_GRACE}, and then the poller stops.
   *
   * @throws MissingStreamException when the stream has not been found for that long
   */
  private ShardLineage describe() {
    try {
      ShardLineage listed = ShardLineage.describe(streams, streamArn);
      streamMissingSince = null;
      return listed;
    } catch (ResourceNotFoundException e) {
      Instant now = clock.instant();
      if (streamMissingSince == null) {
        streamMissingSince = now;
        LOG.warn("consumer {}: stream {} was not found; a stream that is not active yet is not found either, so"
            + " the poller asks again for up to {} s before it stops", settings.consumer(), streamArn,
            STREAM_NOT_FOUND_GRACE.toSeconds());
      }
      Duration missingFor = Duration.between(streamMissingSince, now);
      if (missingFor.compareTo(STREAM_NOT_FOUND_GRACE) >= 0) {
        throw new MissingStreamException(settings.consumer(), store.table(), streamArn, missingFor, e);
      }
      throw e;
    }
  }

  /**
   * GetShardIterator or GetRecords did not find {@code shardId}. Either the stream is gone, or the shard is:
   * DynamoDB drops a shard once all its records are older than 24 hours, and this consumer had not finished
   * it. A fresh listing tells the two apart; a shard the stream still lists is tried again after the backoff.
   */
  private ShardPoll shardNotFound(ShardReader reader, String shardId, Checkpoint checkpoint,
      ResourceNotFoundException e) {
    if (!describe().lists(shardId)) {
      throw trimmed(shardId, checkpoint, e);
    }
    Duration wait = reader.failed(clock.instant(), settings.retryBackoff());
    LOG.warn("consumer {}: shard {} of stream {} was not found although the stream lists it; trying again in {} ms",
        settings.consumer(), shardId, streamArn, wait.toMillis());
    return ShardPoll.FAILING;
  }

  private boolean deliver(ShardReader reader, String shardId, ShardReader.Batch batch) {
    try {
      handler.handle(shardId, batch.records());
      return true;
    } catch (Exception e) {
      // Checked exceptions too, which a Kotlin handler or a sneaky throw lets through: the batch waits as
      // for any other failure, rather than the exception ending the poll unseen.
      Duration wait = reader.failed(clock.instant(), settings.retryBackoff());
      // The handler's message may quote what it was handling: only its class and stack trace are logged.
      LOG.warn("consumer {}: the handler failed on {} record(s) of shard {} ({}, {} time(s) in a row);"
              + " the same records are sent again in {} ms", settings.consumer(), batch.records().size(), shardId,
          e.getClass().getName(), reader.failures(), wait.toMillis(), RedactedException.of(e));
      return false;
    }
  }

  private void retryLater(ShardReader reader, String shardId, String doing, SdkException e) {
    // DynamoDB Streams answers a GetRecords or GetShardIterator over its rate with LimitExceededException (400),
    // which neither the SDK nor Failures counts as throttling: the shard is tried again after its backoff.
    if (Failures.classify(e) == FailureKind.FATAL && !(e instanceof LimitExceededException)) {
      throw e;
    }
    Duration wait = reader.failed(clock.instant(), settings.retryBackoff());
    LOG.warn("consumer {}: {} shard {} failed ({}); trying again in {} ms", settings.consumer(), doing, shardId,
        Failures.describe(e), wait.toMillis());
  }

  /**
   * The stream was disabled and the consumer finished every shard of it. Whether its table has a new stream
   * only completes the message: when DescribeTable fails, the poller stops all the same.
   */
  private StreamEndedException ended() {
    String table = lineage.tableName();
    String current = null;
    if (table != null) {
      try {
        current = currentStreamOfTable.apply(table).filter(arn -> !arn.equals(streamArn)).orElse(null);
      } catch (SdkException e) {
        LOG.warn("consumer {}: whether table {} has a new stream is not known: DescribeTable failed ({})",
            settings.consumer(), table, Failures.describe(e));
      }
    }
    return new StreamEndedException(settings.consumer(), store.table(), streamArn, table, current);
  }

  private StreamDataTrimmedException trimmed(String shardId, Checkpoint checkpoint, Throwable cause) {
    return new StreamDataTrimmedException(settings.consumer(), store.table(), streamArn, shardId,
        checkpoint == null ? null : checkpoint.sequenceNumber(), cause);
  }
}
