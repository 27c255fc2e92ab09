package dev.esgen.testkit.memory;

/**
 * What a layout's rules decided for one append before it is stored: the snapshot it writes, if any, and
 * where the stream stands afterwards.
 *
 * @param snapshot the new snapshot's body, or null when none is written
 * @param dropSnapshot whether the stream's older snapshot goes: on the tip whenever no new one is written
 *     (events-only, or skipped for its size), on the journal when it no longer fits beside what the append
 *     changes; without a new snapshot and without this, the older one stays
 * @param next the stream's position after the append
 */
record PlannedAppend(byte[] snapshot, boolean dropSnapshot, MemoryPosition next) {}
