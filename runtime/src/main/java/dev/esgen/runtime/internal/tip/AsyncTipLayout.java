package dev.esgen.runtime.internal.tip;

import static dev.esgen.runtime.internal.tip.TipAttributes.VERSION;

import dev.esgen.runtime.aggregate.AggregateDefinition;
import dev.esgen.runtime.config.ReadConsistency;
import dev.esgen.runtime.config.StoreConfig;
import dev.esgen.runtime.error.FailureKind;
import dev.esgen.runtime.error.StoreUnavailableException;
import dev.esgen.runtime.index.IndexColumn;
import dev.esgen.runtime.internal.async.CompletableFutures;
import dev.esgen.runtime.internal.index.SlotIndexQuery;
import dev.esgen.runtime.internal.item.AsyncBatchReader;
import dev.esgen.runtime.internal.keys.TipKeys;
import dev.esgen.runtime.internal.metrics.OperationRecorder;
import dev.esgen.runtime.internal.retry.AmbiguousWriteException;
import dev.esgen.runtime.internal.retry.RetryingAsyncClient;
import dev.esgen.runtime.internal.storage.AbstractAsyncLayout;
import dev.esgen.runtime.internal.storage.AppendRequest;
import dev.esgen.runtime.internal.storage.LoadedStream;
import dev.esgen.runtime.internal.storage.ShardedListing;
import dev.esgen.runtime.internal.storage.StoredOutcome;
import dev.esgen.runtime.query.Page;
import dev.esgen.runtime.query.PageRequest;
import java.time.Duration;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsRequest;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;

/**
 * The tip layout of {@link TipLayout}, sent through an asynchronous client: the same requests (a
 * {@code GetItem} of the tip, a {@code Query} of calved batches only when the tip's snapshot does not
 * cover them; a {@code PutItem} or {@code UpdateItem} of the tip per append, a {@code TransactWriteItems}
 * when it calves, reserves unique values or records a command id), built and judged by the same code
 * ({@link TipAppender}, {@link TipLoader.TipFold}, {@link TipIndexReader}'s listing), composed as futures.
 * A single-item write of unknown outcome is read back and, when nothing followed the loaded version, sent
 * again after a pause spent on the delayed executor, as the synchronous appender does in its loop.
 *
 * <pre>{@code
 * AsyncStorageLayout tip = new AsyncTipLayout(new RetryingAsyncClient(asyncClient, executor), config, recorder);
 * tip.load(definition, id, ReadConsistency.STRONG, Optional.empty(), operation).thenAccept(stream -> ...);
 * }</pre>
 */
public final class AsyncTipLayout extends AbstractAsyncLayout {

  private final TipAppender appender;
  private final AsyncBatchReader tips;
  private final OperationRecorder recorder;

  /** @param recorder hears about skipped snapshots */
  public AsyncTipLayout(RetryingAsyncClient client, StoreConfig config, OperationRecorder recorder) {
    super(client, config);
    this.appender = new TipAppender(config, recorder);
    this.recorder = recorder;
    this.tips = new AsyncBatchReader(client, config.tipTable());
  }

  @Override
  public <A, I, E> CompletableFuture<Optional<LoadedStream<A>>> load(AggregateDefinition<A, I, E> definition, I id,
      ReadConsistency consistency, Optional<LoadedStream<A>> remembered, OperationRecorder.Operation operation) {
    String aid = definition.keys().idString(id);
    String stream = new TipKeys(definition.name()).streamName(aid);
    return CompletableFutures.translateFailure(
            client.getItem(TipLoader.tipRequest(config, stream, consistency == ReadConsistency.STRONG), operation),
            this::missingTip)
        .thenCompose(response -> {
          if (!response.hasItem() || response.item().isEmpty()) {
            return CompletableFuture.completedFuture(Optional.empty());
          }
          return fromTip(definition, aid, response.item(), remembered, operation).thenApply(Optional::of);
        });
  }

  /** As the loader's {@code fromTip}: the snapshot, the batches it does not cover, the tip's events, folded. */
  private <A, E> CompletableFuture<LoadedStream<A>> fromTip(AggregateDefinition<A, ?, E> definition, String aid,
      Map<String, AttributeValue> tip, Optional<LoadedStream<A>> remembered, OperationRecorder.Operation operation) {
    return CompletableFutures.start(() -> {
      TipLoader.TipFold<A, E> fold = TipLoader.foldFrom(config, definition, aid, tip, remembered);
      return batches(fold, fold.firstPage(), operation).thenApply(done -> fold.finish());
    });
  }

  private CompletableFuture<Void> batches(
      TipLoader.TipFold<?, ?> fold, Optional<QueryRequest> page, OperationRecorder.Operation operation) {
    if (page.isEmpty()) {
      return CompletableFuture.completedFuture(null);
    }
    return CompletableFutures.translateFailure(client.query(page.get(), operation), this::missingTip)
        .thenCompose(response -> batches(fold, fold.visit(response), operation));
  }

  /**
   * The tips in batches, then each stream whose snapshot does not cover its batches folded in turn: one
   * after the other, as the operation's budget and counts are not shared between concurrent requests.
   */
  @Override
  public <A, I, E> CompletableFuture<Map<I, LoadedStream<A>>> loadAll(AggregateDefinition<A, I, E> definition,
      Collection<I> ids, ReadConsistency consistency, Map<I, LoadedStream<A>> remembered,
      OperationRecorder.Operation operation) {
    return CompletableFutures.start(() -> {
      Map<String, I> byStream = TipLoader.byStream(definition, ids);
      return tips.read(TipLoader.tipKeys(byStream), consistency == ReadConsistency.STRONG, operation)
          .thenCompose(items -> {
            Map<String, Map<String, AttributeValue>> found = TipLoader.byStream(items);
            Map<I, LoadedStream<A>> loaded = new LinkedHashMap<>();
            CompletableFuture<Void> folded = CompletableFuture.completedFuture(null);
            for (Map.Entry<String, I> stream : byStream.entrySet()) {
              Map<String, AttributeValue> tip = found.get(stream.getKey());
              if (tip != null) {
                String aid = definition.keys().idString(stream.getValue());
                Optional<LoadedStream<A>> start = Optional.ofNullable(remembered.get(stream.getValue()));
                folded = folded.thenCompose(done -> fromTip(definition, aid, tip, start, operation))
                    .thenAccept(loadedStream -> loaded.put(stream.getValue(), loadedStream));
              }
            }
            return folded.thenApply(done -> loaded);
          });
    });
  }

  /** Shard by shard, as {@link TipLayout#listAll}: the same walk of the listing index, then the tips read strongly. */
  @Override
  public <A, I, E> CompletableFuture<Page<LoadedStream<A>>> listAll(
      AggregateDefinition<A, I, E> definition, PageRequest page, OperationRecorder.Operation operation) {
    return CompletableFutures.start(() -> {
      ShardedListing.Walk walk = TipIndexReader.listing(definition).walk(page);
      return walk(definition, walk, operation).thenCompose(listed ->
          loadAll(definition, TipIndexReader.ids(definition, listed), ReadConsistency.STRONG, Map.of(), operation)
              .thenApply(loaded -> new Page<>(List.copyOf(loaded.values()), listed.nextCursor())));
    });
  }

  private CompletableFuture<Page<Map<String, AttributeValue>>> walk(
      AggregateDefinition<?, ?, ?> definition, ShardedListing.Walk walk, OperationRecorder.Operation operation) {
    if (!walk.pending()) {
      return CompletableFuture.completedFuture(walk.page());
    }
    QueryRequest query = TipIndexReader.listQuery(config, definition, walk.shard(), walk.startKey(), walk.limit());
    return CompletableFutures.translateFailure(client.query(query, operation),
            failure -> indexFailure(failure, query, definition.name(), "listAll"))
        .thenCompose(response -> {
          walk.accept(response);
          return walk(definition, walk, operation);
        });
  }

  @Override
  public <A, I, E> CompletableFuture<Page<I>> findIndexed(AggregateDefinition<A, I, E> definition,
      IndexColumn column, String value, PageRequest page, OperationRecorder.Operation operation) {
    return CompletableFutures.start(() -> {
      TipKeys keys = new TipKeys(definition.name());
      SlotIndexQuery.SlotPage<I> slotPage = SlotIndexQuery.page(config.tipTable(), definition, column, value, page,
          aid -> TipIndexReader.tipKey(keys, aid));
      return CompletableFutures.translateFailure(client.query(slotPage.request(), operation),
              failure -> indexFailure(failure, slotPage.request(), definition.name(), column.name()))
          .thenApply(slotPage::ids);
    });
  }

  private Throwable indexFailure(Throwable failure, QueryRequest query, String aggregateName, String column) {
    return failure instanceof RuntimeException runtime
        ? SlotIndexQuery.failure(runtime, config.tipTable(), query, aggregateName, column)
        : failure;
  }

  @Override
  public <A, I, E> CompletableFuture<LoadedStream<A>> append(
      AppendRequest<A, I, E> request, OperationRecorder.Operation operation) {
    return CompletableFutures.start(() -> {
      TipAppender.Prepared<A> prepared = appender.prepare(request);
      return prepared.transaction() != null
          ? transact(prepared, request, operation)
          : writeSingle(prepared, request, null, operation);
    });
  }

  /**
   * As the appender's {@code writeSingle}: a write of unknown outcome is read back and, if nothing followed
   * the loaded version, sent again after a pause within the budget; a failed condition after such a resend
   * may be this append's own earlier attempt, so it is read back too.
   *
   * @param ambiguity the last failure of unknown outcome of an earlier attempt, null before any
   */
  private <A> CompletableFuture<LoadedStream<A>> writeSingle(TipAppender.Prepared<A> prepared,
      AppendRequest<A, ?, ?> request, RuntimeException ambiguity, OperationRecorder.Operation operation) {
    CompletableFuture<?> write = prepared.create() != null
        ? client.putItem(prepared.create(), operation)
        : client.updateItem(prepared.update(), operation);
    return write.handle((response, failure) -> {
      if (failure == null) {
        return CompletableFuture.completedFuture(prepared.stored(recorder));
      }
      Throwable cause = CompletableFutures.unwrap(failure);
      if (cause instanceof ConditionalCheckFailedException conflict) {
        if (ambiguity == null) {
          return CompletableFuture.<LoadedStream<A>>failedFuture(prepared.conflict().apply(conflict));
        }
        return readBack(request, ambiguity, operation).thenApply(outcome -> {
          if (outcome != StoredOutcome.THIS_APPEND) {
            throw prepared.conflict().apply(conflict);
          }
          return prepared.stored(recorder);
        });
      }
      if (cause instanceof AmbiguousWriteException ambiguous) {
        RuntimeException last = ambiguous.lastFailure();
        // A failed attempt however reading back settles it: counted and reported before the read-back.
        Optional<Duration> pause = operation.budget().pauseBeforeRetry(FailureKind.OUTCOME_UNKNOWN, last);
        return readBack(request, last, operation).thenCompose(outcome -> {
          if (outcome == StoredOutcome.THIS_APPEND) {
            return CompletableFuture.completedFuture(prepared.stored(recorder));
          }
          if (outcome == StoredOutcome.ANOTHER_APPEND) {
            throw StoredOutcome.lostTo(request, last);
          }
          if (pause.isEmpty()) {
            throw StoredOutcome.unknown(request, last);
          }
          // A caller that gave the command up during the pause gets no further write; the lost attempt may
          // still land, so the outcome stays unknown.
          return CompletableFutures.after(pause.get(), client.executor(), () -> operation.cancelled()
              ? CompletableFuture.<LoadedStream<A>>failedFuture(StoredOutcome.unknown(request, last))
              : writeSingle(prepared, request, last, operation));
        });
      }
      if (cause instanceof CancellationException && ambiguity != null) {
        // The caller gave the command up before a resend; the earlier attempt may still land.
        return CompletableFuture.<LoadedStream<A>>failedFuture(StoredOutcome.unknown(request, ambiguity));
      }
      if (cause instanceof StoreUnavailableException refused && ambiguity != null) {
        return readBack(request, ambiguity, operation).thenApply(outcome -> {
          if (outcome != StoredOutcome.THIS_APPEND) {
            throw TipAppender.refusedAfterAmbiguity(request, ambiguity, refused);
          }
          return prepared.stored(recorder);
        });
      }
      Throwable error = cause instanceof ResourceNotFoundException missing ? appender.missingTip(missing) : cause;
      return CompletableFuture.<LoadedStream<A>>failedFuture(error);
    }).thenCompose(next -> next);
  }

  /** As the appender's {@code sendTransaction}: the retrying client resends it with the same token while in doubt. */
  private <A> CompletableFuture<LoadedStream<A>> transact(TipAppender.Prepared<A> prepared,
      AppendRequest<A, ?, ?> request, OperationRecorder.Operation operation) {
    TransactWriteItemsRequest transaction =
        TransactWriteItemsRequest.builder().transactItems(prepared.transaction().items()).build();
    return client.transactWriteItems(transaction, operation)
        .handle((response, failure) -> {
          if (failure == null) {
            return CompletableFuture.completedFuture(prepared.stored(recorder));
          }
          Throwable cause = CompletableFutures.unwrap(failure);
          if (cause instanceof AmbiguousWriteException ambiguous) {
            RuntimeException last = ambiguous.lastFailure();
            return readBack(request, last, operation).thenApply(outcome -> {
              RuntimeException notStored = prepared.transaction().verdict(outcome, request, last, VERSION);
              if (notStored != null) {
                throw notStored;
              }
              return prepared.stored(recorder);
            });
          }
          Throwable error = cause instanceof TransactionCanceledException cancelled
              ? prepared.transaction().toException(cancelled, request.expectedVersion(), request.creating(), VERSION)
              : cause instanceof ResourceNotFoundException missing
                  ? appender.missingTables(prepared.transaction(), request, missing)
                  : cause;
          return CompletableFuture.<LoadedStream<A>>failedFuture(error);
        })
        .thenCompose(next -> next);
  }

  /**
   * As the appender's {@code readBack}: which append wrote the first event after the request's base, from
   * the tip or the batch it was calved into; a read that fails leaves the outcome unknown.
   */
  private CompletableFuture<StoredOutcome> readBack(
      AppendRequest<?, ?, ?> request, RuntimeException lastFailure, OperationRecorder.Operation operation) {
    CompletableFuture<StoredOutcome> outcome = client.getItem(appender.readBackTip(request), operation)
        .thenCompose(tip -> {
          TipAppender.ReadBack fromTip = appender.readBack(tip, request);
          return fromTip.batch() == null
              ? CompletableFuture.completedFuture(fromTip.outcome())
              : client.query(fromTip.batch(), operation).thenApply(batch -> TipAppender.inBatch(batch, request));
        });
    return CompletableFutures.translateFailure(outcome,
        unreadable -> TipAppender.unreadable(request, lastFailure, unreadable));
  }

  private Throwable missingTip(Throwable failure) {
    return missingTable(failure, config.tipTable());
  }
}
