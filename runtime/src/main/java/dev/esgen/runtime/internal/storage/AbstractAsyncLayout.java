package dev.esgen.runtime.internal.storage;

import dev.esgen.runtime.aggregate.AggregateDefinition;
import dev.esgen.runtime.config.ReadConsistency;
import dev.esgen.runtime.config.StoreConfig;
import dev.esgen.runtime.error.MissingTableException;
import dev.esgen.runtime.index.IndexColumn;
import dev.esgen.runtime.internal.async.CompletableFutures;
import dev.esgen.runtime.internal.command.CommandRecord;
import dev.esgen.runtime.internal.command.CommandRecords;
import dev.esgen.runtime.internal.index.UniqueReservations;
import dev.esgen.runtime.internal.metrics.OperationRecorder;
import dev.esgen.runtime.internal.retry.RetryingAsyncClient;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;

/**
 * What the journal and the tip layout's asynchronous twins have alike: the retrying client they send
 * through, the store's settings, and the two lookups that read the snapshot table the same way in
 * either layout, a command's record and a unique value's holder (both layouts keep command records and
 * reservations there). A subclass loads, appends and lists as its layout stores.
 *
 * <pre>{@code
 * AbstractAsyncLayout tip = new AsyncTipLayout(new RetryingAsyncClient(asyncClient, executor), config, recorder);
 * tip.findCommand(definition, id, "deposit-1", operation).thenAccept(record -> ...);
 * }</pre>
 */
public abstract class AbstractAsyncLayout implements AsyncStorageLayout {

  protected final RetryingAsyncClient client;
  protected final StoreConfig config;
  private final CommandRecords commands;
  private final UniqueReservations reservations;

  protected AbstractAsyncLayout(RetryingAsyncClient client, StoreConfig config) {
    this.client = client;
    this.config = config;
    this.commands = new CommandRecords(config.snapshotTable());
    this.reservations = new UniqueReservations(config.snapshotTable());
  }

  @Override
  public final <A, I, E> CompletableFuture<Optional<CommandRecord>> findCommand(
      AggregateDefinition<A, I, E> definition, I id, String commandId, OperationRecorder.Operation operation) {
    return CompletableFutures.start(() -> {
      String aid = definition.keys().idString(id);
      return CompletableFutures.translateFailure(
              client.getItem(commands.findRequest(definition.name(), aid, commandId), operation),
              failure -> failure instanceof ResourceNotFoundException missing ? commands.missingTable(missing) : failure)
          .thenApply(response -> CommandRecords.found(definition.name(), aid, commandId, response));
    });
  }

  @Override
  public final <A, I, E> CompletableFuture<Optional<I>> findUnique(AggregateDefinition<A, I, E> definition,
      IndexColumn column, String value, ReadConsistency consistency, OperationRecorder.Operation operation) {
    return CompletableFutures.start(() -> CompletableFutures.translateFailure(
            client.getItem(reservations.holderRequest(definition.name(), column, value,
                consistency == ReadConsistency.STRONG), operation),
            failure -> failure instanceof ResourceNotFoundException missing ? reservations.missingTable(missing) : failure)
        .thenApply(response -> UniqueReservations.holderIn(response.item()).map(definition.keys()::parseId)));
  }

  /** {@code failure} as esgen reports it when it says {@code table} is not there; any other failure as it is. */
  protected static Throwable missingTable(Throwable failure, String table) {
    return failure instanceof ResourceNotFoundException missing
        ? new MissingTableException(List.of(table), missing)
        : failure;
  }
}
