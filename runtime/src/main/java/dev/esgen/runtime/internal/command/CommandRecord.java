package dev.esgen.runtime.internal.command;

import java.time.Instant;

/**
 * A command that was applied to a stream, as its command record says.
 *
 * <pre>{@code
 * Optional<CommandRecord> done = commands.find(client, "bank-account", aid, "deposit-42");
 * done.ifPresent(c -> log.info("already applied at version {}", c.version()));
 * }</pre>
 *
 * @param commandId the caller's command id
 * @param version the stream's version right after the command
 * @param seqNr the seq_nr of the command's last event
 * @param appendId the append id stored with the command's events
 * @param recordedAt when the command was stored
 */
public record CommandRecord(String commandId, long version, long seqNr, String appendId, Instant recordedAt) {}
