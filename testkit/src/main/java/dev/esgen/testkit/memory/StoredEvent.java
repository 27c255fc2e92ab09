package dev.esgen.testkit.memory;

import dev.esgen.runtime.history.EventMetadata;
import java.time.Instant;

/**
 * One event as the in-memory store keeps it: in its stored form, so that reading it runs the codec.
 *
 * @param type the stored type name
 * @param body what the event codec wrote
 * @param recordedAt the store's clock at the append
 * @param metadata what the append said about itself
 */
record StoredEvent(String type, byte[] body, Instant recordedAt, EventMetadata metadata) {}
