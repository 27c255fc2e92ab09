package dev.esgen.testkit.memory;

import dev.esgen.runtime.internal.keys.IndexKeys;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntPredicate;

/**
 * One stream as the in-memory store keeps it: its events in stored form, its version, its latest
 * snapshot, the index slot values written for it, and the {@link MemoryPosition} its next append starts
 * from. Mutable; only touched while holding the monitor of the {@link StoredData} it belongs to.
 */
final class StoredStream {

  private final String aid;
  private final int shard;
  private final List<KeptEvent> events = new ArrayList<>();
  private final Map<Integer, String> slots = new HashMap<>();
  private long version;
  private long snapshotSeqNr;
  private byte[] snapshot;
  private String snapshotFingerprint;
  private MemoryPosition position;

  StoredStream(String aid, int shard, MemoryPosition position) {
    this.aid = aid;
    this.shard = shard;
    this.position = position;
  }

  String aid() {
    return aid;
  }

  /**
   * The shard the stream was created in, by the shard count of the definition that created it: on the
   * journal its head row's partition, on the tip its listing key's shard. Neither changes afterwards.
   */
  int shard() {
    return shard;
  }

  long version() {
    return version;
  }

  long lastSeqNr() {
    return events.size();
  }

  MemoryPosition position() {
    return position;
  }

  /** The value key in index slot {@code slot}, or null. */
  String slot(int slot) {
    return slots.get(slot);
  }

  /** The size of the index slot attributes of the slots {@code which} accepts, as DynamoDB measures them. */
  long slotBytes(IntPredicate which) {
    long bytes = 0;
    for (Map.Entry<Integer, String> slot : slots.entrySet()) {
      if (which.test(slot.getKey())) {
        bytes += ItemSizes.attribute(IndexKeys.slotAttribute(slot.getKey()), ItemSizes.utf8(slot.getValue()));
      }
    }
    return bytes;
  }

  /** Sets index slot {@code slot} to {@code valueKey}, or clears it for null. */
  void slot(int slot, String valueKey) {
    if (valueKey == null) {
      slots.remove(slot);
    } else {
      slots.put(slot, valueKey);
    }
  }

  /**
   * Adds an append: its events, the new version and position, and what happens to the snapshot.
   *
   * @param fingerprint the snapshot codec's fingerprint, stored with a new snapshot
   */
  void append(List<KeptEvent> appended, PlannedAppend plan, String fingerprint) {
    events.addAll(appended);
    version++;
    position = plan.next();
    if (plan.snapshot() != null) {
      snapshot = plan.snapshot();
      snapshotSeqNr = events.size();
      snapshotFingerprint = fingerprint;
    } else if (plan.dropSnapshot()) {
      snapshot = null;
      snapshotSeqNr = 0;
      snapshotFingerprint = null;
    }
  }

  /**
   * What a load by code with the snapshot fingerprint {@code fingerprint} needs, copied so that it can be
   * decoded without holding the store's monitor. A snapshot with another fingerprint is left out, as
   * DynamoDB's layouts ignore it: the copy holds every event, and its position asks the next append for a
   * fresh snapshot.
   */
  StreamCopy copy(String fingerprint) {
    boolean stale = snapshot != null && !fingerprint.equals(snapshotFingerprint);
    long from = snapshot == null || stale ? 0 : snapshotSeqNr;
    return new StreamCopy(aid, version, events.size(), from, stale ? null : snapshot,
        List.copyOf(events.subList((int) from, events.size())), position.withSnapshotStale(stale));
  }

  /** Events {@code from} to {@code to} (both inclusive, within the stream), copied. */
  List<KeptEvent> events(long from, long to) {
    return from > to ? List.of() : List.copyOf(events.subList((int) from - 1, (int) to));
  }
}
