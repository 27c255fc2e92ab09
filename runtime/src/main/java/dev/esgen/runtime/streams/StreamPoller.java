package dev.esgen.runtime.streams;

import dev.esgen.runtime.config.RetryPolicy;
import dev.esgen.runtime.error.EsgenException;
import dev.esgen.runtime.feed.StreamRecordsHandler;
import dev.esgen.runtime.internal.Durations;
import dev.esgen.runtime.internal.TableNames;
import dev.esgen.runtime.internal.keys.IndexKeys;
import dev.esgen.runtime.internal.keys.KeyStrings;
import dev.esgen.runtime.internal.retry.Failures;
import dev.esgen.runtime.internal.streams.CheckpointStore;
import dev.esgen.runtime.internal.streams.RetryBackoff;
import dev.esgen.runtime.internal.streams.ShardCoordinator;
import dev.esgen.runtime.internal.streams.ShardLease;
import dev.esgen.runtime.internal.streams.TableStreams;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

/**
 * Reads a table's DynamoDB stream in this process and hands every batch to a {@link StreamRecordsHandler}
 * (usually the change feed), for development, tests and small services. On AWS, at scale, the
 * {@code esgen-lambda} module does the same job.
 *
 * <p>What it guarantees:
 * <ul>
 *   <li><b>Order and lineage.</b> Each shard is read in order; a child shard is read only once its parent
 *       is finished (closed, and every record of it handled), so the records of an item never overtake
 *       each other when DynamoDB splits or rolls a shard over.
 *   <li><b>At least once, nothing skipped.</b> After each batch the handler took, the shard's checkpoint
 *       (the last sequence number, and whether the shard is finished) is stored in the checkpoint table
 *       under the consumer's name. A batch whose handler throws is sent again, unchanged, after a backoff
 *       that doubles up to {@code retryBackoff}'s maximum, as often as it takes; later records of that
 *       shard wait. A restart after a crash goes on after the stored checkpoints, so a batch handled
 *       but not yet checkpointed is delivered again.
 *   <li><b>Expired iterators</b> (they live 15 minutes) are taken again after the checkpoint.
 *       <b>Trimmed records</b> (older than the stream's 24 hours, not handled yet) stop the poller with
 *       {@link StreamDataTrimmedException}, which says how to replay.
 *   <li><b>One stream.</b> A consumer reads the stream it found at its first poll, which its checkpoints
 *       record, and is never moved to another. A stream that was disabled (its table's stream switched off,
 *       or the table deleted) is read to its end, and once every record of it is handled and checkpointed the
 *       poller stops with {@link StreamEndedException}, which names the table's new stream if it has one. A
 *       poller started for the consumer on another stream (the table's new one, found by
 *       {@link Builder#tableName}, when the stream was switched off and on while the consumer did not run)
 *       stops with it at its first poll, before reading anything. A stream that no
 *       longer exists (gone 24 hours after it was disabled) stops it with {@link MissingStreamException}
 *       once DynamoDB Streams has not found it for a minute; a stream being enabled is not found either.
 * </ul>
 *
 * <p>A consumer that has no checkpoints yet starts at its {@link StartPosition}. With a
 * {@linkplain Builder#lease(Duration) lease}, only one poller of a consumer reads at a time; the others
 * wait and take over when it stops or its lease expires. Progress goes to SLF4J under this class's name
 * (shard starts and ends at INFO, every batch at DEBUG, failures at WARN), without record contents.
 *
 * <p>Drive it with {@link #start()} and {@link #close()}, or call {@link #pollOnce()} yourself (in tests).
 *
 * <pre>{@code
 * CheckpointTable.createIfMissing(dynamoDb, "esgen-feed");
 * StreamPoller poller = StreamPoller.builder()
 *     .streamsClient(DynamoDbStreamsClient.create())
 *     .dynamoDbClient(dynamoDb)
 *     .tableName("streams")                       // or .streamArn(arn)
 *     .checkpointTable("esgen-feed")
 *     .consumer("balances")
 *     .handler(changeFeed)
 *     .build();
 * poller.start();
 * // ...
 * poller.close();
 * }</pre>
 *
 * <p>Instances are thread-safe; one poll runs at a time.
 */
public final class StreamPoller implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(StreamPoller.class);

  /** How long {@link #close()} waits for a thread of its own to end after the batch in hand. */
  private static final Duration OWN_THREAD_SHUTDOWN = Duration.ofSeconds(10);

  private final ShardCoordinator coordinator;
  private final String consumer;
  private final Duration pollInterval;
  private final RetryBackoff errorBackoff;
  private final ScheduledExecutorService givenExecutor;
  private final ReentrantLock pollLock = new ReentrantLock();

  private ScheduledExecutorService executor;
  private ScheduledFuture<?> next;
  private volatile boolean running;
  private volatile boolean closed;
  private volatile RuntimeException failure;
  private int failedPolls;

  private StreamPoller(Builder builder, ShardCoordinator coordinator) {
    this.coordinator = coordinator;
    this.consumer = builder.consumer;
    this.pollInterval = builder.pollInterval;
    this.errorBackoff = builder.retryBackoff;
    this.givenExecutor = builder.executor;
  }

  /** A builder; stream, clients, checkpoint table, consumer and handler are required. */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Reads one batch of every shard that may be read now, hands each to the handler and stores its
   * checkpoint. Returns when that is done; a failing handler is reported in the result, and its batch is
   * sent again by a later poll once its backoff has passed.
   *
   * @throws StreamDataTrimmedException when records the consumer has not handled are no longer in the stream
   * @throws StreamEndedException when the stream was disabled and the consumer has handled all of it, or the
   *     consumer's checkpoints belong to another stream than this poller's
   * @throws StreamNotEnabledException when the table has no stream
   * @throws MissingStreamException when DynamoDB Streams has not found the stream for a minute; before that,
   *     its {@code ResourceNotFoundException}
   * @throws MissingCheckpointTableException when the checkpoint table does not exist
   * @throws dev.esgen.runtime.error.MissingTableException when the table does not exist
   * @throws IllegalStateException after {@link #close()}
   */
  public PollResult pollOnce() {
    pollLock.lock();
    try {
      if (closed) {
        throw new IllegalStateException("stream poller of consumer " + consumer + " is closed");
      }
      return coordinator.poll(() -> closed);
    } finally {
      releaseLeaseIfClosedDuringPoll();
      pollLock.unlock();
    }
  }

  /**
   * Polls on a thread of its own (or the executor given to the builder) until {@link #close()}: at once
   * again while there is more to read, after the poll interval when the stream is idle, after a growing
   * backoff when DynamoDB fails. It stops by itself only on a failure that polling again cannot fix
   * (trimmed records, a missing table or stream, a disabled stream read to its end, an {@link Error} from the
   * handler), which {@link #failure()} then returns.
   *
   * @throws IllegalStateException when started before, or closed
   */
  public synchronized void start() {
    if (closed || executor != null) {
      throw new IllegalStateException("stream poller of consumer " + consumer + " was "
          + (closed ? "closed" : "started already") + "; build a new one");
    }
    executor = givenExecutor != null ? givenExecutor : Executors.newSingleThreadScheduledExecutor(task -> {
      Thread thread = new Thread(task, "esgen-stream-poller-" + consumer);
      thread.setDaemon(false);
      return thread;
    });
    running = true;
    LOG.info("stream poller of consumer {} started", consumer);
    schedule(Duration.ZERO);
  }

  /** Whether the poller was started and neither closed nor stopped by a failure. */
  public boolean isRunning() {
    return running;
  }

  /** Why a started poller stopped by itself; empty while it runs, or after a plain {@link #close()}. */
  public Optional<RuntimeException> failure() {
    return Optional.ofNullable(failure);
  }

  /** The consumer name whose checkpoints this poller keeps. */
  public String consumer() {
    return consumer;
  }

  /**
   * Stops polling: waits for the batch in hand to be handled and checkpointed, gives the lease up and
   * ends the poller's own thread (an executor given to the builder is left running). Idempotent.
   *
   * <p>Called from the handler, during a poll, it returns at once: the poll hands no other shard's batch
   * over, and the lease is given up and the poller's own thread ended when the batch in hand is
   * checkpointed and the poll returns.
   */
  @Override
  public void close() {
    ScheduledExecutorService ownExecutor;
    synchronized (this) {
      if (closed) {
        return;
      }
      closed = true;
      running = false;
      if (next != null) {
        next.cancel(false);
      }
      ownExecutor = givenExecutor == null ? executor : null;
    }
    if (pollLock.isHeldByCurrentThread()) {
      // The handler closes the poller mid-poll: waiting here for the poll to end would wait for itself.
      // The poll gives the lease up as it ends; the own thread ends once its task returns.
      if (ownExecutor != null) {
        ownExecutor.shutdown();
      }
      LOG.info("stream poller of consumer {} closing after the batch in hand", consumer);
      return;
    }
    pollLock.lock();
    try {
      releaseLease();
    } finally {
      pollLock.unlock();
    }
    if (ownExecutor != null) {
      ownExecutor.shutdown();
      try {
        if (!ownExecutor.awaitTermination(OWN_THREAD_SHUTDOWN.toMillis(), TimeUnit.MILLISECONDS)) {
          LOG.warn("stream poller of consumer {}: its thread did not end within {}", consumer, OWN_THREAD_SHUTDOWN);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    LOG.info("stream poller of consumer {} closed", consumer);
  }

  private void pollAndReschedule() {
    Duration delay;
    pollLock.lock();
    try {
      if (closed) {
        return;
      }
      PollResult result = coordinator.poll(() -> closed);
      failedPolls = 0;
      delay = result.moreToRead() ? Duration.ZERO : pollInterval;
    } catch (EsgenException e) {
      // Trimmed records, a missing table or stream: polling again cannot help, an operator must.
      failure = e;
      running = false;
      LOG.error("stream poller of consumer {} stopped: {}", consumer, e.getMessage());
      endOwnThread();
      return;
    } catch (Exception e) {
      failedPolls++;
      delay = errorBackoff.after(failedPolls);
      LOG.warn("stream poller of consumer {}: poll failed ({}, {} time(s) in a row); polling again in {} ms",
          consumer, Failures.describe(e), failedPolls, delay.toMillis());
    } catch (Error e) {
      // A handler's StackOverflowError or a class that failed to load would meet every poll again, and
      // the executor's future would swallow it unseen: the poller stops and says why. No checkpoint moved.
      failure = new IllegalStateException("the poll ended with " + e.getClass().getName(), e);
      running = false;
      LOG.error("stream poller of consumer {} stopped: the poll ended with {}", consumer, e.getClass().getName());
      endOwnThread();
      return;
    } finally {
      releaseLeaseIfClosedDuringPoll();
      pollLock.unlock();
    }
    schedule(delay);
  }

  /**
   * A poller that stopped by itself polls no more: its own (non-daemon) thread ends once this poll returns,
   * or it would keep the JVM from exiting for nothing until {@link #close()}. An executor given to the builder
   * is the application's and is left running.
   */
  private void endOwnThread() {
    if (givenExecutor == null) {
      executor.shutdown();
    }
  }

  /**
   * After a poll during which the handler called {@link #close()}: gives the lease up, which that call
   * left to the end of the poll. Called with the poll lock held.
   */
  private void releaseLeaseIfClosedDuringPoll() {
    if (closed && pollLock.getHoldCount() == 1) {
      releaseLease();
    }
  }

  /** Gives the lease up, if one is held; with the poll lock held. */
  private void releaseLease() {
    try {
      coordinator.releaseLease();
    } catch (RuntimeException e) {
      // The lease expires by itself; the thread must end all the same, or it keeps the JVM from exiting.
      LOG.warn("stream poller of consumer {}: its lease could not be given up ({}); another poller takes it once"
          + " it expires", consumer, Failures.describe(e));
    }
  }

  private synchronized void schedule(Duration delay) {
    if (closed) {
      return;
    }
    try {
      next = executor.schedule(this::pollAndReschedule, delay.toNanos(), TimeUnit.NANOSECONDS);
    } catch (RejectedExecutionException e) {
      running = false;
      failure = e;
      LOG.error("stream poller of consumer {} stopped: its executor takes no more tasks", consumer);
    }
  }

  /**
   * Configures a {@link StreamPoller}.
   *
   * <pre>{@code
   * StreamPoller poller = StreamPoller.builder()
   *     .streamsClient(streams).dynamoDbClient(dynamoDb)
   *     .streamArn(arn)
   *     .checkpointTable("esgen-feed").consumer("statements")
   *     .handler(changeFeed)
   *     .startPosition(StartPosition.LATEST)
   *     .lease(Duration.ofSeconds(30))
   *     .build();
   * }</pre>
   */
  public static final class Builder {

    private DynamoDbStreamsClient streamsClient;
    private DynamoDbClient dynamoDbClient;
    private String tableName;
    private String streamArn;
    private String checkpointTable;
    private String consumer;
    private StreamRecordsHandler handler;
    private StartPosition startPosition = StartPosition.TRIM_HORIZON;
    private Duration pollInterval = Duration.ofSeconds(1);
    private int batchSize = 1000;
    private RetryBackoff retryBackoff = new RetryBackoff(Duration.ofSeconds(1), Duration.ofMinutes(1));
    private Duration shardRefreshInterval = Duration.ofMinutes(1);
    private Duration lease;
    private String leaseOwner;
    private ScheduledExecutorService executor;
    private Clock clock = Clock.systemUTC();

    private Builder() {}

    /** The client that reads the stream (DescribeStream, GetShardIterator, GetRecords). */
    public Builder streamsClient(DynamoDbStreamsClient streamsClient) {
      this.streamsClient = Objects.requireNonNull(streamsClient, "streamsClient");
      return this;
    }

    /** The client that reads and writes checkpoints, and finds the stream of {@link #tableName}. */
    public Builder dynamoDbClient(DynamoDbClient dynamoDbClient) {
      this.dynamoDbClient = Objects.requireNonNull(dynamoDbClient, "dynamoDbClient");
      return this;
    }

    /**
     * Reads the table's current stream, found with DescribeTable at the first poll. A stream the table gets
     * later, after its stream was switched off and on, is not read, not even by a poller of the consumer
     * started afterwards: see {@link StreamEndedException}.
     */
    public Builder tableName(String tableName) {
      this.tableName = TableNames.require("tableName", tableName);
      return this;
    }

    /**
     * Reads this stream. A consumer whose checkpoints belong to another stream is not moved to it: see
     * {@link StreamEndedException}.
     *
     * @throws IllegalArgumentException when {@code streamArn} is not 37 to 1024 characters long, as every stream
     *     ARN is: DynamoDB Streams would refuse it at every poll
     */
    public Builder streamArn(String streamArn) {
      Objects.requireNonNull(streamArn, "streamArn");
      if (streamArn.length() < 37 || streamArn.length() > 1024) {
        // Named when short enough to be a mistyped name; a longer one is not repeated into logs in full.
        String given = streamArn.length() < 37 ? "'" + streamArn + "'" : "of " + streamArn.length() + " characters";
        throw new IllegalArgumentException("streamArn " + given + " is no stream ARN: a stream ARN has 37 to"
            + " 1024 characters (arn:aws:dynamodb:{region}:{account}:table/{table}/stream/{label})");
      }
      this.streamArn = streamArn;
      return this;
    }

    /**
     * The table ({@code pkey}/{@code skey}, both S) that keeps the checkpoints; see {@link CheckpointTable}.
     *
     * @throws IllegalArgumentException when DynamoDB would refuse the name (as {@code StoreConfig}'s tables)
     */
    public Builder checkpointTable(String checkpointTable) {
      this.checkpointTable = TableNames.require("checkpointTable", checkpointTable);
      return this;
    }

    /**
     * The name checkpoints are kept under: pollers of one name share progress, different names read apart.
     * The checkpoints of a name belong to the one stream it first read.
     *
     * @throws IllegalArgumentException when the name is not well-formed Unicode (two such names would meet
     *     in one key) or makes a checkpoint key longer than DynamoDB's 2048 bytes
     */
    public Builder consumer(String consumer) {
      Objects.requireNonNull(consumer, "consumer");
      wellFormed(consumer, "consumer name");
      int keyBytes = CheckpointStore.partitionKey(consumer).getBytes(StandardCharsets.UTF_8).length;
      if (keyBytes > IndexKeys.KEY_LIMIT_BYTES) {
        throw new IllegalArgumentException("a consumer name of " + consumer.getBytes(StandardCharsets.UTF_8).length
            + " bytes makes a checkpoint key of " + keyBytes + " bytes, over DynamoDB's key limit of "
            + IndexKeys.KEY_LIMIT_BYTES + " bytes");
      }
      this.consumer = consumer;
      return this;
    }

    /** Takes each batch; usually the change feed. */
    public Builder handler(StreamRecordsHandler handler) {
      this.handler = Objects.requireNonNull(handler, "handler");
      return this;
    }

    /** Where a consumer without checkpoints starts; {@link StartPosition#TRIM_HORIZON} by default. */
    public Builder startPosition(StartPosition startPosition) {
      this.startPosition = Objects.requireNonNull(startPosition, "startPosition");
      return this;
    }

    /**
     * The wait between polls while the stream is idle; 1 second by default. Zero polls an idle stream again
     * at once, in a loop: a {@linkplain StreamPoller#start() started} poller then sends GetRecords for every
     * open shard, and a conditional lease write while another poller holds the lease, as fast as DynamoDB
     * answers. {@link StreamPoller#pollOnce()}, which tests call, never waits for it.
     */
    public Builder pollInterval(Duration pollInterval) {
      this.pollInterval = bounded(pollInterval, "pollInterval");
      return this;
    }

    /** The most records one GetRecords returns, from 1 to 1000 (the default). */
    public Builder batchSize(int batchSize) {
      if (batchSize < 1 || batchSize > 1000) {
        throw new IllegalArgumentException("batchSize must be from 1 to 1000, was " + batchSize);
      }
      this.batchSize = batchSize;
      return this;
    }

    /**
     * The wait before a failed batch (or a failed poll) is tried again: {@code initial}, doubling per
     * further failure up to {@code max}. By default 1 second up to 1 minute. An {@code initial} of zero
     * stays zero, whatever {@code max}: a failed batch is sent again at the next poll, and a started poller
     * polls again at once after a failed poll, as often as it fails. Tests use
     * {@code retryBackoff(Duration.ZERO, Duration.ZERO)} to send a failed batch again at their next
     * {@link StreamPoller#pollOnce()}.
     */
    public Builder retryBackoff(Duration initial, Duration max) {
      this.retryBackoff =
          new RetryBackoff(bounded(initial, "retryBackoff's initial"), bounded(max, "retryBackoff's max"));
      return this;
    }

    /** How often the stream's shards are listed again while no shard finished; 1 minute by default. */
    public Builder shardRefreshInterval(Duration shardRefreshInterval) {
      this.shardRefreshInterval = bounded(shardRefreshInterval, "shardRefreshInterval");
      return this;
    }

    /**
     * Lets one poller of the consumer read at a time: a lease item in the checkpoint table, held for
     * {@code duration} and renewed while the poller polls. Off by default.
     */
    public Builder lease(Duration duration) {
      if (bounded(duration, "lease").isZero()) {
        throw new IllegalArgumentException("a lease must last longer than 0, was " + duration);
      }
      this.lease = duration;
      return this;
    }

    /**
     * The owner name the lease is taken under; a random one by default. A stable name (the host's) lets
     * a restarted poller take its own lease back at once instead of waiting for it to expire.
     */
    public Builder leaseOwner(String leaseOwner) {
      this.leaseOwner = wellFormed(Objects.requireNonNull(leaseOwner, "leaseOwner"), "lease owner");
      return this;
    }

    /** Runs the polls of {@link StreamPoller#start()} on this executor instead of a thread of the poller's own. */
    public Builder executor(ScheduledExecutorService executor) {
      this.executor = Objects.requireNonNull(executor, "executor");
      return this;
    }

    /** The clock of leases, backoffs and shard listings; the system's by default. */
    public Builder clock(Clock clock) {
      this.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    /**
     * @throws IllegalStateException when something required is missing, or both a table and a stream ARN are given
     */
    public StreamPoller build() {
      require(streamsClient, "streamsClient");
      require(dynamoDbClient, "dynamoDbClient");
      require(checkpointTable, "checkpointTable");
      require(handler, "handler");
      if (consumer == null || consumer.isBlank()) {
        throw new IllegalStateException("a stream poller needs a consumer name: consumer(\"...\")");
      }
      if ((tableName == null) == (streamArn == null)) {
        throw new IllegalStateException("give a stream poller either tableName(...) or streamArn(...), not "
            + (tableName == null ? "neither" : "both"));
      }
      DynamoDbClient dynamoDb = dynamoDbClient;
      String table = tableName;
      String arn = streamArn;
      Supplier<String> streamArnSource = arn != null ? () -> arn : () -> TableStreams.latestStreamArn(dynamoDb, table);
      CheckpointStore store = new CheckpointStore(dynamoDbClient, checkpointTable, consumer, clock);
      ShardLease shardLease = lease == null ? null : new ShardLease(dynamoDbClient, checkpointTable, consumer,
          leaseOwner != null ? leaseOwner : UUID.randomUUID().toString(), lease, clock);
      ShardCoordinator coordinator = new ShardCoordinator(streamsClient, streamArnSource,
          streamTable -> TableStreams.currentStreamArn(dynamoDb, streamTable), store, shardLease, handler,
          new ShardCoordinator.Settings(consumer, startPosition, batchSize, retryBackoff, shardRefreshInterval), clock);
      return new StreamPoller(this, coordinator);
    }

    private static void require(Object value, String name) {
      if (value == null) {
        throw new IllegalStateException("a stream poller needs " + name + "(...)");
      }
    }

    /**
     * {@code duration}, from 0 to {@link RetryPolicy#MAX_DURATION}: a longer one would overflow the clock's
     * arithmetic.
     */
    private static Duration bounded(Duration duration, String name) {
      if (Objects.requireNonNull(duration, name).isNegative()) {
        throw new IllegalArgumentException(name + " must not be negative, was " + duration);
      }
      return Durations.requireAtMost(name, duration, RetryPolicy.MAX_DURATION);
    }

    /** {@code name}, unless it holds half of a surrogate pair, which has no UTF-8 form: stored, it would be '?'. */
    private static String wellFormed(String name, String what) {
      int unpaired = KeyStrings.unpairedSurrogate(name);
      if (unpaired >= 0) {
        throw new IllegalArgumentException(
            "a " + what + " must be well-formed Unicode; " + KeyStrings.unpairedSurrogateReason(unpaired));
      }
      return name;
    }
  }
}
