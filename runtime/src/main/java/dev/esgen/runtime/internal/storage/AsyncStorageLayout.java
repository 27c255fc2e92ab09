package dev.esgen.runtime.internal.storage;

import dev.esgen.runtime.aggregate.AggregateDefinition;
import dev.esgen.runtime.config.ReadConsistency;
import dev.esgen.runtime.index.IndexColumn;
import dev.esgen.runtime.internal.command.CommandRecord;
import dev.esgen.runtime.internal.metrics.OperationRecorder;
import dev.esgen.runtime.query.Page;
import dev.esgen.runtime.query.PageRequest;
import java.util.Collection;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * The {@link StorageLayout} operations an asynchronous repository needs, answered with futures over a
 * {@code DynamoDbAsyncClient}. Each call means exactly what the {@code StorageLayout} method of the same
 * name means, and an implementation builds its requests and judges their responses with the same code
 * as its synchronous twin; only the sending differs. The operation whose retry budget the requests draw
 * on, and which counts them for the store's listener, is passed explicitly: the steps of one operation
 * run on whichever threads complete the SDK's futures. No method blocks or throws: every failure fails
 * the returned future, with esgen's exception itself.
 *
 * <pre>{@code
 * AsyncStorageLayout layout = asyncStore.layoutFor(definition);
 * layout.load(definition, id, ReadConsistency.STRONG, Optional.empty(), operation)
 *     .thenCompose(current -> layout.append(new AppendRequest<>(definition, id, current, events, next), operation));
 * }</pre>
 */
public interface AsyncStorageLayout {

  /**
   * As {@link StorageLayout#load(AggregateDefinition, Object, ReadConsistency, Optional)}: folds on from
   * {@code remembered} where that saves reading or decoding.
   */
  <A, I, E> CompletableFuture<Optional<LoadedStream<A>>> load(AggregateDefinition<A, I, E> definition, I id,
      ReadConsistency consistency, Optional<LoadedStream<A>> remembered, OperationRecorder.Operation operation);

  /**
   * As {@link StorageLayout#append}: an append of unknown outcome is settled by reading back its append
   * id; the future fails with {@link dev.esgen.runtime.error.AppendOutcomeUnknownException} when that is
   * impossible.
   */
  <A, I, E> CompletableFuture<LoadedStream<A>> append(
      AppendRequest<A, I, E> request, OperationRecorder.Operation operation);

  /** As {@link StorageLayout#findCommand}. */
  <A, I, E> CompletableFuture<Optional<CommandRecord>> findCommand(
      AggregateDefinition<A, I, E> definition, I id, String commandId, OperationRecorder.Operation operation);

  /** As {@link StorageLayout#loadAll(AggregateDefinition, Collection, ReadConsistency)}. */
  <A, I, E> CompletableFuture<Map<I, LoadedStream<A>>> loadAll(AggregateDefinition<A, I, E> definition,
      Collection<I> ids, ReadConsistency consistency, Map<I, LoadedStream<A>> remembered,
      OperationRecorder.Operation operation);

  /** As {@link StorageLayout#listAll}. */
  <A, I, E> CompletableFuture<Page<LoadedStream<A>>> listAll(
      AggregateDefinition<A, I, E> definition, PageRequest page, OperationRecorder.Operation operation);

  /** As {@link StorageLayout#findIndexed}. */
  <A, I, E> CompletableFuture<Page<I>> findIndexed(AggregateDefinition<A, I, E> definition, IndexColumn column,
      String value, PageRequest page, OperationRecorder.Operation operation);

  /** As {@link StorageLayout#findUnique(AggregateDefinition, IndexColumn, String, ReadConsistency)}. */
  <A, I, E> CompletableFuture<Optional<I>> findUnique(AggregateDefinition<A, I, E> definition, IndexColumn column,
      String value, ReadConsistency consistency, OperationRecorder.Operation operation);
}
