package dev.esgen.runtime.repository;

import dev.esgen.runtime.history.EventMetadata;
import dev.esgen.runtime.internal.command.CommandRecords;
import java.util.Objects;
import java.util.Optional;

/**
 * What a create, append or transact carries besides its events: an optional command id that makes it
 * idempotent, and metadata stored with every event (filled in from the {@link
 * dev.esgen.runtime.history.EventContext} for what it leaves out).
 *
 * <pre>{@code
 * AppendOptions options = AppendOptions.command("deposit-" + requestId)
 *     .withMetadata(EventMetadata.none().withActor("teller-7"));
 * accounts.transact(id, options, account -> account.deposit(500));
 * }</pre>
 *
 * @param commandId the caller's command id, if any (see {@link EventSourcedRepository#transact(Object, String,
 *     java.util.function.Function)})
 * @param metadata the metadata to store with the events
 */
public record AppendOptions(Optional<String> commandId, EventMetadata metadata) {

  private static final AppendOptions NONE = new AppendOptions(Optional.empty(), EventMetadata.none());

  /** Requires both components: {@link #none()} has neither a command id nor metadata of its own. */
  public AppendOptions {
    Objects.requireNonNull(commandId, "commandId");
    Objects.requireNonNull(metadata, "metadata");
  }

  /** No command id, no metadata of its own. */
  public static AppendOptions none() {
    return NONE;
  }

  /**
   * The command {@code commandId}, without metadata of its own.
   *
   * @throws NullPointerException when {@code commandId} is null: {@link #none()} has no command id
   */
  public static AppendOptions command(String commandId) {
    return new AppendOptions(Optional.of(requireCommandId(commandId)), EventMetadata.none());
  }

  /** No command id, {@code metadata}. */
  public static AppendOptions metadata(EventMetadata metadata) {
    return new AppendOptions(Optional.empty(), metadata);
  }

  /** These options with {@code newMetadata}. */
  public AppendOptions withMetadata(EventMetadata newMetadata) {
    return new AppendOptions(commandId, newMetadata);
  }

  /**
   * These options as the command {@code newCommandId}.
   *
   * @throws NullPointerException when {@code newCommandId} is null
   */
  public AppendOptions withCommandId(String newCommandId) {
    return new AppendOptions(Optional.of(requireCommandId(newCommandId)), metadata);
  }

  private static String requireCommandId(String commandId) {
    return Objects.requireNonNull(commandId, "commandId is null; AppendOptions.none() or metadata(...) have no command id");
  }

  /** Checks the command id, if any, before anything is sent. */
  AppendOptions checked(String aggregateName) {
    commandId.ifPresent(id -> CommandRecords.check(aggregateName, id));
    return this;
  }
}
