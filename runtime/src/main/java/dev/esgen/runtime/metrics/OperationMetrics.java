package dev.esgen.runtime.metrics;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * What one repository operation cost: the DynamoDB requests it sent, the capacity units DynamoDB
 * reported for them ({@code ReturnConsumedCapacity = TOTAL}), how many write attempts it made and how
 * many of them lost to another writer, and how long it took.
 *
 * <pre>{@code
 * StoreListener log = m -> LOG.info("{} {}: {} requests, {} RCU, {} WCU, {} conflicts, {} ms",
 *     m.aggregateType(), m.operation(), m.requests(), m.readCapacityUnits(), m.writeCapacityUnits(),
 *     m.conflicts(), m.latency().toMillis());
 * }</pre>
 *
 * @param aggregateType the aggregate's stored name, e.g. {@code "bank-account"}
 * @param operation the repository method: {@code create}, {@code append}, {@code transact},
 *     {@code load}, {@code loadVersioned}, {@code findById}, {@code findVersioned}, {@code findAll},
 *     {@code listAll}, {@code reindex}, {@code reindexAll}, {@code events} (one per page of events read), or
 *     {@code findBy}/{@code listBy} and the stored column name for an index lookup ({@code loadBy...} too)
 * @param requests DynamoDB requests sent, every resend counted (esgen switches the SDK's own retries off)
 * @param readCapacityUnits read capacity units DynamoDB reported, summed over the requests
 * @param writeCapacityUnits write capacity units DynamoDB reported, summed over the requests
 * @param attempts write attempts: 1 for a plain append or create, 1 or more for {@code transact} and
 *     {@code reindex} (one or more per stream for {@code reindexAll}), 0 for reads
 * @param conflicts attempts that lost to another writer (a version conflict) and were retried or given up
 *     on by {@code transact} or a reindex; a plain append or create refused for its version ends with a
 *     {@code VersionConflictException} as its {@code failure} instead
 * @param transientFailures requests DynamoDB refused for a while (throttling, transaction conflicts)
 *     and esgen sent again or gave up on
 * @param unknownOutcomes requests whose outcome was unknown (time-outs, lost responses, server errors)
 * @param latency wall-clock time of the whole operation, retries and back-off included
 * @param failure the exception the operation ended with, if it failed
 */
public record OperationMetrics(
    String aggregateType,
    String operation,
    int requests,
    double readCapacityUnits,
    double writeCapacityUnits,
    int attempts,
    int conflicts,
    int transientFailures,
    int unknownOutcomes,
    Duration latency,
    Optional<RuntimeException> failure) {

  /** Requires every component; {@code failure} is empty for an operation that succeeded. */
  public OperationMetrics {
    Objects.requireNonNull(aggregateType, "aggregateType");
    Objects.requireNonNull(operation, "operation");
    Objects.requireNonNull(latency, "latency");
    Objects.requireNonNull(failure, "failure");
  }

  /** Read plus write capacity units. */
  public double capacityUnits() {
    return readCapacityUnits + writeCapacityUnits;
  }
}
