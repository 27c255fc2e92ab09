package dev.esgen.testkit.memory;

import dev.esgen.runtime.internal.metrics.OperationRecorder;
import dev.esgen.runtime.metrics.SkippedSnapshot;
import java.util.Optional;

/**
 * What a layout's rules decided for one append before it is stored: the snapshot it writes, if any, where
 * the stream stands afterwards, and the due snapshot left out for its size, if one was.
 *
 * @param snapshot the new snapshot's body, or null when none is written
 * @param dropSnapshot whether the stream's older snapshot goes: on the tip whenever no new one is written
 *     (events-only, or skipped for its size), on the journal when it no longer fits beside what the append
 *     changes; without a new snapshot and without this, the older one stays
 * @param next the stream's position after the append
 * @param skipped the due snapshot too large for its item, which the listener hears of once the append is
 *     stored, as DynamoDB's layouts tell it: never for an append refused or tried again
 */
record PlannedAppend(byte[] snapshot, boolean dropSnapshot, MemoryPosition next, Optional<SkippedSnapshot> skipped) {

  /** Tells {@code recorder} of the skipped snapshot, if there was one: what an append does once stored. */
  void stored(OperationRecorder recorder) {
    skipped.ifPresent(recorder::snapshotSkipped);
  }
}
