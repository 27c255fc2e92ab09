package dev.esgen.testkit.memory;

import dev.esgen.runtime.aggregate.AggregateDefinition;
import dev.esgen.runtime.config.ReadConsistency;
import dev.esgen.runtime.index.IndexColumn;
import dev.esgen.runtime.internal.command.CommandRecord;
import dev.esgen.runtime.internal.metrics.OperationRecorder;
import dev.esgen.runtime.internal.storage.AppendRequest;
import dev.esgen.runtime.internal.storage.AsyncStorageLayout;
import dev.esgen.runtime.internal.storage.LoadedStream;
import dev.esgen.runtime.internal.storage.StorageLayout;
import dev.esgen.runtime.query.Page;
import dev.esgen.runtime.query.PageRequest;
import java.util.Collection;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * The asynchronous face of a {@link MemoryLayout}: each call runs on the calling thread, as it takes
 * microseconds, and returns a completed future, or a failed one with the same exception the synchronous
 * call throws. The asynchronous repositories then keep the storage contract the synchronous ones keep here.
 *
 * <pre>{@code
 * AsyncStorageLayout async = new MemoryAsyncLayout(journal);
 * async.load(definition, id, ReadConsistency.STRONG, Optional.empty(), operation).join();
 * }</pre>
 */
final class MemoryAsyncLayout implements AsyncStorageLayout {

  private final StorageLayout layout;

  MemoryAsyncLayout(StorageLayout layout) {
    this.layout = layout;
  }

  @Override
  public <A, I, E> CompletableFuture<Optional<LoadedStream<A>>> load(AggregateDefinition<A, I, E> definition, I id,
      ReadConsistency consistency, Optional<LoadedStream<A>> remembered, OperationRecorder.Operation operation) {
    return completed(() -> layout.load(definition, id, consistency, remembered));
  }

  @Override
  public <A, I, E> CompletableFuture<LoadedStream<A>> append(
      AppendRequest<A, I, E> request, OperationRecorder.Operation operation) {
    return completed(() -> layout.append(request));
  }

  @Override
  public <A, I, E> CompletableFuture<Optional<CommandRecord>> findCommand(
      AggregateDefinition<A, I, E> definition, I id, String commandId, OperationRecorder.Operation operation) {
    return completed(() -> layout.findCommand(definition, id, commandId));
  }

  @Override
  public <A, I, E> CompletableFuture<Map<I, LoadedStream<A>>> loadAll(AggregateDefinition<A, I, E> definition,
      Collection<I> ids, ReadConsistency consistency, Map<I, LoadedStream<A>> remembered,
      OperationRecorder.Operation operation) {
    return completed(() -> layout.loadAll(definition, ids, consistency, remembered));
  }

  @Override
  public <A, I, E> CompletableFuture<Page<LoadedStream<A>>> listAll(
      AggregateDefinition<A, I, E> definition, PageRequest page, OperationRecorder.Operation operation) {
    return completed(() -> layout.listAll(definition, page));
  }

  @Override
  public <A, I, E> CompletableFuture<Page<I>> findIndexed(AggregateDefinition<A, I, E> definition,
      IndexColumn column, String value, PageRequest page, OperationRecorder.Operation operation) {
    return completed(() -> layout.findIndexed(definition, column, value, page));
  }

  @Override
  public <A, I, E> CompletableFuture<Optional<I>> findUnique(AggregateDefinition<A, I, E> definition,
      IndexColumn column, String value, ReadConsistency consistency, OperationRecorder.Operation operation) {
    return completed(() -> layout.findUnique(definition, column, value, consistency));
  }

  /** The result of {@code call}, or its exception, as a completed future. */
  private static <T> CompletableFuture<T> completed(Supplier<T> call) {
    try {
      return CompletableFuture.completedFuture(call.get());
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
  }
}
