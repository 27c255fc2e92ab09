package dev.esgen.runtime.metrics;

/**
 * A snapshot that was due but not written because the item holding it would exceed DynamoDB's item
 * size limit. The append itself was stored; loads fold the events since the snapshot the stream keeps
 * (on the journal layout the last one that fitted; the tip layout drops its older snapshot with the
 * skipped one and folds from the first event), and the next append tries again. A stream whose state keeps
 * growing past the limit keeps skipping: a sign the aggregate holds too much.
 *
 * <pre>{@code
 * StoreListener listener = new StoreListener() {
 *   public void onOperation(OperationMetrics m) {}
 *   public void onSnapshotSkipped(SkippedSnapshot s) {
 *     log.warn("{} {}: snapshot at {} is {} bytes, over {}", s.aggregateType(), s.aggregateId(), s.seqNr(),
 *         s.sizeBytes(), s.limitBytes());
 *   }
 * };
 * }</pre>
 *
 * @param aggregateType the aggregate's stored name
 * @param aggregateId the stream's id string
 * @param seqNr the seq_nr the snapshot would have been taken at
 * @param sizeBytes the size the item holding it would have had
 * @param limitBytes DynamoDB's item size limit
 */
public record SkippedSnapshot(String aggregateType, String aggregateId, long seqNr, long sizeBytes, long limitBytes) {}
