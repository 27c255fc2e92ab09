package dev.esgen.micrometer;

import dev.esgen.runtime.metrics.FailedAttempt;
import dev.esgen.runtime.metrics.OperationMetrics;
import dev.esgen.runtime.metrics.SkippedSnapshot;
import dev.esgen.runtime.metrics.StoreListener;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;

/**
 * A {@link StoreListener} that records what each repository operation cost as Micrometer meters, per
 * aggregate type and operation: latency, DynamoDB requests, read and write capacity units, write attempts
 * and conflicts, failed attempts by kind, and skipped snapshots.
 *
 * <p>Meter names follow Micrometer's conventions (dot-separated, lower case, base units: latency in
 * seconds), so each registry renders them in its own style ({@code esgen_operation_seconds} in
 * Prometheus). Tags carry only names esgen or DynamoDB chose (the aggregate's stored name, the repository
 * method, an exception's class, a DynamoDB error code), never an id or a stored value, so their number is
 * bounded by the code. The meters and their tags are listed in {@code docs/metrics.md}.
 *
 * <p>Meters are looked up in the registry when an operation ends; that costs far less than the DynamoDB
 * request the operation sent, and it keeps the registry's meter filters and removals in charge. The
 * listener is thread-safe.
 *
 * <pre>{@code
 * StoreListener metrics = MicrometerStoreListener.builder(registry).tags("store", "orders").build();
 * EventStore store = DynamoDbEventStore.create(client, StoreConfig.defaults().withListener(metrics));
 * }</pre>
 */
public final class MicrometerStoreListener implements StoreListener {

  /** Timer of every repository operation, retries and back-off included. */
  public static final String OPERATION = "esgen.operation";
  /** Distribution summary of the DynamoDB requests one operation sent, resends included. */
  public static final String REQUESTS = "esgen.operation.requests";
  /** Distribution summary of the read capacity units DynamoDB reported for one operation. */
  public static final String READ_CAPACITY = "esgen.operation.read.capacity";
  /** Distribution summary of the write capacity units DynamoDB reported for one operation. */
  public static final String WRITE_CAPACITY = "esgen.operation.write.capacity";
  /** Distribution summary of the write attempts of one operation that wrote (or tried to). */
  public static final String ATTEMPTS = "esgen.operation.attempts";
  /** Counter of write attempts that lost to another writer. */
  public static final String CONFLICTS = "esgen.operation.conflicts";
  /** Counter of failed attempts: refused, unanswered or conflicting requests, retried or not. */
  public static final String FAILED_ATTEMPTS = "esgen.operation.failed.attempts";
  /** Counter of due snapshots that were not written because they would not fit in an item. */
  public static final String SKIPPED_SNAPSHOTS = "esgen.skipped.snapshots";

  /** Tag: the aggregate's stored name, e.g. {@code bank-account}. */
  public static final String AGGREGATE = "aggregate";
  /**
   * Tag: the repository method, e.g. {@code transact}; a lookup by index column is {@code findBy} or
   * {@code listBy} and the stored column name, e.g. {@code findByemail} for {@code loadByEmail} too.
   */
  public static final String OPERATION_TAG = "operation";
  /** Tag: {@code success} or {@code failure}. */
  public static final String OUTCOME = "outcome";
  /** Tag: the simple class name of the exception an operation ended with, {@code none} when it succeeded. */
  public static final String EXCEPTION = "exception";
  /** Tag: the {@link dev.esgen.runtime.error.FailureKind} of a failed attempt, in lower case. */
  public static final String KIND = "kind";
  /** Tag: DynamoDB's error code of a failed attempt, or the simple class name of its exception. */
  public static final String ERROR = "error";
  /** Tag: {@code true} when esgen tried again after the failed attempt, {@code false} when it gave up. */
  public static final String RETRIED = "retried";

  static final String SUCCESS = "success";
  static final String FAILURE = "failure";
  static final String NONE = "none";

  private final MeterRegistry registry;
  private final Tags commonTags;

  private MicrometerStoreListener(MeterRegistry registry, Tags commonTags) {
    this.registry = registry;
    this.commonTags = commonTags;
  }

  /** A builder of a listener that records into {@code registry}. */
  public static Builder builder(MeterRegistry registry) {
    return new Builder(Objects.requireNonNull(registry, "registry"));
  }

  @Override
  public void onOperation(OperationMetrics metrics) {
    Tags tags = commonTags.and(
        AGGREGATE, metrics.aggregateType(),
        OPERATION_TAG, metrics.operation(),
        OUTCOME, metrics.failure().isPresent() ? FAILURE : SUCCESS);
    Timer.builder(OPERATION)
        .description("Repository operations, retries and back-off included")
        .tags(tags)
        .tag(EXCEPTION, metrics.failure().map(MicrometerStoreListener::className).orElse(NONE))
        .register(registry)
        .record(metrics.latency());
    DistributionSummary.builder(REQUESTS)
        .description("DynamoDB requests sent by one repository operation, resends included")
        .baseUnit("requests")
        .tags(tags)
        .register(registry)
        .record(metrics.requests());
    DistributionSummary.builder(READ_CAPACITY)
        .description("Read capacity units DynamoDB reported for one repository operation")
        .baseUnit("units")
        .tags(tags)
        .register(registry)
        .record(metrics.readCapacityUnits());
    DistributionSummary.builder(WRITE_CAPACITY)
        .description("Write capacity units DynamoDB reported for one repository operation")
        .baseUnit("units")
        .tags(tags)
        .register(registry)
        .record(metrics.writeCapacityUnits());
    // Reads make no write attempt; leaving them out keeps the attempts per write the summary's mean, and
    // spares a series of zeros per read operation.
    if (metrics.attempts() > 0) {
      DistributionSummary.builder(ATTEMPTS)
          .description("Write attempts of one repository operation that wrote")
          .baseUnit("attempts")
          .tags(tags)
          .register(registry)
          .record(metrics.attempts());
      Counter.builder(CONFLICTS)
          .description("Write attempts that lost to another writer")
          .baseUnit("conflicts")
          .tags(tags)
          .register(registry)
          .increment(metrics.conflicts());
    }
  }

  @Override
  public void onFailedAttempt(FailedAttempt attempt) {
    Counter.builder(FAILED_ATTEMPTS)
        .description("Failed attempts inside repository operations, by what the failure means")
        .baseUnit("attempts")
        .tags(commonTags)
        .tag(AGGREGATE, attempt.aggregateType())
        .tag(OPERATION_TAG, attempt.operation())
        .tag(KIND, attempt.kind().name().toLowerCase(Locale.ROOT))
        .tag(ERROR, attempt.errorCode())
        .tag(RETRIED, Boolean.toString(attempt.retryAfter().isPresent()))
        .register(registry)
        .increment();
  }

  @Override
  public void onSnapshotSkipped(SkippedSnapshot snapshot) {
    Counter.builder(SKIPPED_SNAPSHOTS)
        .description("Due snapshots not written because the item holding them would exceed 400 KB")
        .baseUnit("snapshots")
        .tags(commonTags)
        .tag(AGGREGATE, snapshot.aggregateType())
        .register(registry)
        .increment();
  }

  /** The simple name, or the full name for classes that have none (anonymous and hidden classes). */
  private static String className(Throwable failure) {
    String simple = failure.getClass().getSimpleName();
    return simple.isEmpty() ? failure.getClass().getName() : simple;
  }

  /** Builds a {@link MicrometerStoreListener}. */
  public static final class Builder {

    private static final Set<String> RESERVED = Set.of(AGGREGATE, OPERATION_TAG, OUTCOME, EXCEPTION, KIND, ERROR, RETRIED);

    private final MeterRegistry registry;
    private Tags tags = Tags.empty();

    private Builder(MeterRegistry registry) {
      this.registry = registry;
    }

    /**
     * Tags added to every meter, e.g. {@code tags("store", "orders")} to tell two stores apart; as key,
     * value pairs. Their keys must not be among the tags the listener sets itself.
     */
    public Builder tags(String... keyValues) {
      return tags(Tags.of(keyValues));
    }

    /** Tags added to every meter; their keys must not be among the tags the listener sets itself. */
    public Builder tags(Iterable<Tag> extra) {
      Tags added = Tags.of(extra);
      for (Tag tag : added) {
        if (RESERVED.contains(tag.getKey())) {
          throw new IllegalArgumentException("tag '" + tag.getKey() + "' is set by the listener itself; use another key");
        }
      }
      this.tags = this.tags.and(added);
      return this;
    }

    /** The listener, recording into the registry given to {@link MicrometerStoreListener#builder}. */
    public MicrometerStoreListener build() {
      return new MicrometerStoreListener(registry, tags);
    }
  }
}
