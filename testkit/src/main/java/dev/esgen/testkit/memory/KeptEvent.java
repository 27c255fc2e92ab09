package dev.esgen.testkit.memory;

import dev.esgen.runtime.history.EventMetadata;
import java.time.Instant;

/**
 * One event as the in-memory store keeps it: in its stored form, so that reading it runs the codec and
 * its upcasters.
 *
 * @param type the stored type name
 * @param version the version of the stored body (1 for events of types without versions)
 * @param body what the event codec wrote
 * @param recordedAt the store's clock at the append
 * @param metadata what the append said about itself
 */
record KeptEvent(String type, int version, byte[] body, Instant recordedAt, EventMetadata metadata) {}
