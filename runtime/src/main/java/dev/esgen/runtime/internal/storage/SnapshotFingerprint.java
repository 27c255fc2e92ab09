package dev.esgen.runtime.internal.storage;

import dev.esgen.runtime.aggregate.AggregateDefinition;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Whether a stored snapshot was written by the current code: its stored fingerprint (absent for
 * snapshots written without one) must equal the snapshot codec's. Both layouts ask here before decoding a
 * snapshot, so a stale one is never even parsed.
 *
 * <pre>{@code
 * if (SnapshotFingerprint.matches(definition, head.get(JournalAttributes.SNAPSHOT_SCHEMA))) { ... }
 * }</pre>
 */
public final class SnapshotFingerprint {

  private SnapshotFingerprint() {}

  /** Whether {@code stored} (null when the snapshot has none) is the definition's current fingerprint. */
  public static boolean matches(AggregateDefinition<?, ?, ?> definition, AttributeValue stored) {
    String current = definition.snapshotCodec().fingerprint();
    String found = stored == null || stored.s() == null ? "" : stored.s();
    return current.equals(found);
  }

  /** The attribute to store beside a new snapshot; null for a codec without a fingerprint. */
  public static AttributeValue attribute(AggregateDefinition<?, ?, ?> definition) {
    String current = definition.snapshotCodec().fingerprint();
    return current.isEmpty() ? null : AttributeValue.fromS(current);
  }
}
