package dev.esgen.runtime.internal.journal;

import static dev.esgen.runtime.internal.journal.JournalAttributes.VERSION;

import dev.esgen.runtime.aggregate.AggregateDefinition;
import dev.esgen.runtime.config.ReadConsistency;
import dev.esgen.runtime.config.StoreConfig;
import dev.esgen.runtime.error.CorruptStreamException;
import dev.esgen.runtime.index.IndexColumn;
import dev.esgen.runtime.internal.async.CompletableFutures;
import dev.esgen.runtime.internal.index.SlotIndexQuery;
import dev.esgen.runtime.internal.item.AsyncBatchReader;
import dev.esgen.runtime.internal.keys.JournalKeys;
import dev.esgen.runtime.internal.metrics.OperationRecorder;
import dev.esgen.runtime.internal.retry.AmbiguousWriteException;
import dev.esgen.runtime.internal.retry.RetryingAsyncClient;
import dev.esgen.runtime.internal.storage.AbstractAsyncLayout;
import dev.esgen.runtime.internal.storage.AppendRequest;
import dev.esgen.runtime.internal.storage.LoadedStream;
import dev.esgen.runtime.internal.storage.ShardedListing;
import dev.esgen.runtime.query.Page;
import dev.esgen.runtime.query.PageRequest;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsRequest;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;

/**
 * The journal + snapshot layout of {@link JournalLayout}, sent through an asynchronous client: the same
 * requests (a {@code GetItem} of the head row, a {@code Query} of the events after its snapshot, one
 * {@code TransactWriteItems} per append), built and judged by the same code ({@link JournalAppender},
 * {@link JournalLoader.HeadFold}, {@link JournalLoader.EventRange}), composed as futures.
 *
 * <pre>{@code
 * AsyncStorageLayout journal = new AsyncJournalLayout(new RetryingAsyncClient(asyncClient, executor), config, recorder);
 * journal.load(definition, id, ReadConsistency.STRONG, Optional.empty(), operation).thenAccept(stream -> ...);
 * }</pre>
 */
public final class AsyncJournalLayout extends AbstractAsyncLayout {

  private final JournalAppender appender;
  private final AsyncBatchReader heads;
  private final OperationRecorder recorder;

  /** @param recorder hears about skipped snapshots */
  public AsyncJournalLayout(RetryingAsyncClient client, StoreConfig config, OperationRecorder recorder) {
    super(client, config);
    this.appender = new JournalAppender(config, recorder);
    this.recorder = recorder;
    this.heads = new AsyncBatchReader(client, config.snapshotTable());
  }

  @Override
  public <A, I, E> CompletableFuture<Optional<LoadedStream<A>>> load(AggregateDefinition<A, I, E> definition, I id,
      ReadConsistency consistency, Optional<LoadedStream<A>> remembered, OperationRecorder.Operation operation) {
    String aid = definition.keys().idString(id);
    JournalKeys keys = new JournalKeys(definition.name(), definition.shards());
    boolean consistent = consistency == ReadConsistency.STRONG;
    return CompletableFutures.translateFailure(
            client.getItem(JournalLoader.headRequest(config, keys, aid, consistent), operation),
            failure -> missingTable(failure, config.snapshotTable()))
        .thenCompose(response -> {
          if (!response.hasItem() || response.item().isEmpty()) {
            return CompletableFuture.completedFuture(Optional.empty());
          }
          return fromHead(definition, keys, aid, response.item(), consistent, remembered, operation)
              .thenApply(Optional::of);
        });
  }

  /**
   * As the loader's {@code fromHead}: the snapshot of {@code head} (or {@code remembered}) and the events
   * after it, folded.
   */
  private <A, I, E> CompletableFuture<LoadedStream<A>> fromHead(AggregateDefinition<A, I, E> definition,
      JournalKeys keys, String aid, Map<String, AttributeValue> head, boolean consistent,
      Optional<LoadedStream<A>> remembered, OperationRecorder.Operation operation) {
    JournalLoader.HeadFold<A, E> fold = JournalLoader.foldFrom(definition, aid, head, remembered);
    if (!fold.needsEvents()) {
      return CompletableFuture.completedFuture(fold.finish());
    }
    CompletableFuture<Void> events =
        visitEvents(definition, keys, aid, fold.from(), fold.to(), consistent, fold, operation);
    return CompletableFutures.translateFailure(events,
            failure -> failure instanceof CorruptStreamException missing ? fold.missing(missing) : failure)
        .thenApply(visited -> fold.finish());
  }

  /**
   * The head rows in batches, then each stream behind its snapshot folded in turn: one after the other,
   * as the operation's budget and counts are not shared between concurrent requests.
   */
  @Override
  public <A, I, E> CompletableFuture<Map<I, LoadedStream<A>>> loadAll(AggregateDefinition<A, I, E> definition,
      Collection<I> ids, ReadConsistency consistency, Map<I, LoadedStream<A>> remembered,
      OperationRecorder.Operation operation) {
    JournalKeys keys = new JournalKeys(definition.name(), definition.shards());
    boolean consistent = consistency == ReadConsistency.STRONG;
    Map<String, I> byAid = JournalLoader.byAid(definition, ids);
    return heads.read(JournalLoader.headKeys(keys, byAid.keySet()), consistent, operation).thenCompose(items -> {
      Map<String, Map<String, AttributeValue>> found = new HashMap<>();
      for (Map<String, AttributeValue> head : items) {
        found.put(head.get(JournalAttributes.AID).s(), head);
      }
      Map<I, LoadedStream<A>> loaded = new LinkedHashMap<>();
      CompletableFuture<Void> folded = CompletableFuture.completedFuture(null);
      for (Map.Entry<String, I> stream : byAid.entrySet()) {
        Map<String, AttributeValue> head = found.get(stream.getKey());
        if (head != null) {
          Optional<LoadedStream<A>> start = Optional.ofNullable(remembered.get(stream.getValue()));
          folded = folded.thenCompose(done ->
                  fromHead(definition, keys, stream.getKey(), head, consistent, start, operation))
              .thenAccept(loadedStream -> loaded.put(stream.getValue(), loadedStream));
        }
      }
      return folded.thenApply(done -> loaded);
    });
  }

  /** Shard by shard, as {@link JournalLayout#listAll}: the same walk, each query sent asynchronously. */
  @Override
  public <A, I, E> CompletableFuture<Page<LoadedStream<A>>> listAll(
      AggregateDefinition<A, I, E> definition, PageRequest page, OperationRecorder.Operation operation) {
    JournalKeys keys = new JournalKeys(definition.name(), definition.shards());
    ShardedListing.Walk walk = JournalIndexReader.listing(definition).walk(page);
    return walk(definition, walk, operation).thenCompose(heads -> {
      List<LoadedStream<A>> streams = new ArrayList<>();
      CompletableFuture<Void> folded = CompletableFuture.completedFuture(null);
      for (Map<String, AttributeValue> head : heads.items()) {
        folded = folded.thenCompose(done -> fromHead(definition, keys, head.get(JournalAttributes.AID).s(),
            JournalIndexReader.inItsPartition(definition, keys, head), true, Optional.empty(), operation))
            .thenAccept(streams::add);
      }
      return folded.thenApply(done -> new Page<>(streams, heads.nextCursor()));
    });
  }

  private CompletableFuture<Page<Map<String, AttributeValue>>> walk(
      AggregateDefinition<?, ?, ?> definition, ShardedListing.Walk walk, OperationRecorder.Operation operation) {
    if (!walk.pending()) {
      return CompletableFuture.completedFuture(walk.page());
    }
    QueryRequest query = JournalIndexReader.listQuery(config, definition, walk.shard(), walk.startKey(), walk.limit());
    return CompletableFutures.translateFailure(client.query(query, operation),
            failure -> missingTable(failure, config.snapshotTable()))
        .thenCompose(response -> {
          walk.accept(response);
          return walk(definition, walk, operation);
        });
  }

  @Override
  public <A, I, E> CompletableFuture<Page<I>> findIndexed(AggregateDefinition<A, I, E> definition,
      IndexColumn column, String value, PageRequest page, OperationRecorder.Operation operation) {
    JournalKeys keys = new JournalKeys(definition.name(), definition.shards());
    SlotIndexQuery.SlotPage<I> slotPage = SlotIndexQuery.page(config.snapshotTable(), definition, column, value, page,
        aid -> JournalLoader.headKeys(keys, List.of(aid)).get(0));
    return CompletableFutures.translateFailure(client.query(slotPage.request(), operation),
            failure -> failure instanceof RuntimeException runtime
                ? SlotIndexQuery.failure(runtime, config.snapshotTable(), slotPage.request(), definition.name(),
                    column.name())
                : failure)
        .thenApply(slotPage::ids);
  }

  /** As the loader's {@code forEachEvent}: every page of the range, then strongly what an eventual read missed. */
  private CompletableFuture<Void> visitEvents(AggregateDefinition<?, ?, ?> definition, JournalKeys keys, String aid,
      long from, long to, boolean consistent, JournalLoader.ItemVisitor visitor, OperationRecorder.Operation operation) {
    JournalLoader.EventRange range = JournalLoader.eventRange(config, definition, keys, aid, from, to, consistent, visitor);
    return pages(range, range.firstPage(), operation).thenCompose(visited -> {
      if (range.readAgainStrongly()) {
        return visitEvents(definition, keys, aid, range.expected(), to, true, visitor, operation);
      }
      range.checkComplete();
      return CompletableFuture.completedFuture(null);
    });
  }

  private CompletableFuture<Void> pages(
      JournalLoader.EventRange range, QueryRequest page, OperationRecorder.Operation operation) {
    return CompletableFutures.translateFailure(client.query(page, operation),
            failure -> missingTable(failure, config.journalTable()))
        .thenCompose(response -> range.visit(response)
            .map(next -> pages(range, next, operation))
            .orElseGet(() -> CompletableFuture.completedFuture(null)));
  }

  @Override
  public <A, I, E> CompletableFuture<LoadedStream<A>> append(
      AppendRequest<A, I, E> request, OperationRecorder.Operation operation) {
    JournalAppender.Prepared<A> prepared = appender.prepare(request);
    TransactWriteItemsRequest transaction =
        TransactWriteItemsRequest.builder().transactItems(prepared.transaction().items()).build();
    return client.transactWriteItems(transaction, operation)
        .handle((response, failure) -> {
          if (failure == null) {
            return CompletableFuture.completedFuture(prepared.stored(recorder));
          }
          Throwable cause = CompletableFutures.unwrap(failure);
          if (cause instanceof AmbiguousWriteException ambiguous) {
            return settle(ambiguous, prepared, request, operation);
          }
          Throwable error = cause instanceof TransactionCanceledException cancelled
              ? prepared.transaction().toException(cancelled, request.expectedVersion(), request.creating(), VERSION)
              : cause instanceof ResourceNotFoundException missing ? appender.missingTables(missing) : cause;
          return CompletableFuture.<LoadedStream<A>>failedFuture(error);
        })
        .thenCompose(next -> next);
  }

  /** Completes when the append is stored; fails with what is true otherwise. */
  private <A> CompletableFuture<LoadedStream<A>> settle(AmbiguousWriteException ambiguous,
      JournalAppender.Prepared<A> prepared, AppendRequest<A, ?, ?> request, OperationRecorder.Operation operation) {
    return client.getItem(appender.readBack(request), operation)
        .handle((response, failure) -> {
          if (failure != null) {
            throw JournalAppender.unreadable(ambiguous, request, CompletableFutures.unwrap(failure));
          }
          RuntimeException notStored = prepared.transaction().verdict(JournalAppender.outcome(response, request),
              request, ambiguous.lastFailure(), VERSION);
          if (notStored != null) {
            throw notStored;
          }
          return prepared.stored(recorder);
        });
  }
}
