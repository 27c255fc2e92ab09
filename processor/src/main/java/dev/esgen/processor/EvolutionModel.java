package dev.esgen.processor;

import com.palantir.javapoet.ClassName;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * How an aggregate reads what older code stored: each stored type's versions and upcasters, and the
 * fingerprint its snapshots are stored with.
 *
 * @param current the stored type of each concrete event, in declaration order
 * @param retired stored types no event class holds any more, read by their upcasters only
 * @param snapshotFingerprint the snapshot codec's fingerprint (see {@link SnapshotFingerprinter})
 * @param snapshotVersion {@code @Aggregate(snapshotVersion)}, part of the fingerprint
 */
record EvolutionModel(Map<ClassName, StoredTypeModel> current, List<StoredTypeModel> retired,
    String snapshotFingerprint, int snapshotVersion) {

  EvolutionModel {
    current = Collections.unmodifiableMap(new LinkedHashMap<>(current));
    retired = List.copyOf(retired);
  }

  /** The stored type of event {@code event}. */
  StoredTypeModel of(ClassName event) {
    return current.get(event);
  }
}
