package dev.esgen.testkit.memory;

import java.util.List;

/**
 * A stream as it was stored at one moment, enough to load it: its latest snapshot the reading code can use
 * and the events after it.
 *
 * @param aid the stream's id string
 * @param version the stream's version
 * @param lastSeqNr the seq_nr of its last event
 * @param snapshotSeqNr where the snapshot was taken, 0 without one
 * @param snapshot the snapshot body, or null without one or when it is stale
 * @param eventsAfterSnapshot the events {@code snapshotSeqNr + 1 .. lastSeqNr}
 * @param position where the next append starts from, stale snapshot noted
 */
record StreamCopy(String aid, long version, long lastSeqNr, long snapshotSeqNr, byte[] snapshot,
    List<KeptEvent> eventsAfterSnapshot, MemoryPosition position) {}
