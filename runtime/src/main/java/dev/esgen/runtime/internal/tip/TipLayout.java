package dev.esgen.runtime.internal.tip;

import dev.esgen.runtime.aggregate.AggregateDefinition;
import dev.esgen.runtime.config.ReadConsistency;
import dev.esgen.runtime.config.StoreConfig;
import dev.esgen.runtime.index.IndexColumn;
import dev.esgen.runtime.internal.command.CommandRecord;
import dev.esgen.runtime.internal.command.CommandRecords;
import dev.esgen.runtime.internal.metrics.OperationRecorder;
import dev.esgen.runtime.internal.storage.AppendRequest;
import dev.esgen.runtime.internal.storage.EventPage;
import dev.esgen.runtime.internal.storage.LoadedStream;
import dev.esgen.runtime.internal.storage.StorageLayout;
import dev.esgen.runtime.query.Page;
import dev.esgen.runtime.query.PageRequest;
import java.util.Collection;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * The tip layout (after Equinox's DynamoStore): a stream is one tip item holding its newest events and
 * a snapshot, plus zero or more calved batch items with older events, all in the tip table.
 *
 * <p>A load is one strongly consistent {@code GetItem} of the tip when its snapshot is current (always,
 * unless the aggregate is events-only), else the tip plus a backwards {@code Query} of the batches it
 * needs. An append is one conditional {@code UpdateItem} of the tip ({@code PutItem} for a new stream);
 * when the tip's events would pass the {@link dev.esgen.runtime.aggregate.TipPolicy} threshold they are
 * moved to a new batch item in the same {@code TransactWriteItems} that writes the new events into the
 * tip, or into that batch item too when they alone pass the threshold (into a second one when the two
 * together would pass 400 KB). A DynamoDB Streams consumer must
 * read the records of the tip and of its batches to see every event. Keys in {@link dev.esgen.runtime.internal.keys.TipKeys}, attributes in {@link TipAttributes}.
 *
 * <p>Index columns work as in the journal layout: {@code @Indexed} values are slot attributes of the tip
 * (global secondary indexes {@code esgen-index-{i}} on the tip table), written only when they change;
 * {@code @Unique} values are reservation items in the snapshot table, written in one
 * {@code TransactWriteItems} with the tip when an append takes or gives up a value (only then is an
 * append a transaction). {@code listAll} reads the listing index {@link dev.esgen.runtime.internal.keys.TipKeys#LISTING_INDEX}, whose
 * key the tip gets at creation. See {@code docs/schema.md}.
 *
 * <pre>{@code
 * StorageLayout tip = new TipLayout(client, StoreConfig.defaults(), recorder);
 * Optional<LoadedStream<Cart>> cart = tip.load(definition, id);
 * }</pre>
 */
public final class TipLayout implements StorageLayout {

  private final DynamoDbClient client;
  private final TipLoader loader;
  private final TipAppender appender;
  private final TipIndexReader indexReader;
  private final CommandRecords commands;
  private final TipReindexer reindexer;

  /**
   * @param client the client every request goes through; esgen's store hands in one that retries
   * @param recorder hears about skipped snapshots
   */
  public TipLayout(DynamoDbClient client, StoreConfig config, OperationRecorder recorder) {
    this.client = client;
    this.loader = new TipLoader(client, config, recorder);
    this.appender = new TipAppender(config, recorder);
    this.indexReader = new TipIndexReader(client, config, loader);
    this.commands = new CommandRecords(config.snapshotTable());
    this.reindexer = new TipReindexer(client, config, recorder);
  }

  @Override
  public <A, I, E> Optional<LoadedStream<A>> load(AggregateDefinition<A, I, E> definition, I id) {
    return loader.load(definition, id, true, Optional.empty());
  }

  @Override
  public <A, I, E> Optional<LoadedStream<A>> load(
      AggregateDefinition<A, I, E> definition, I id, ReadConsistency consistency) {
    return loader.load(definition, id, consistency == ReadConsistency.STRONG, Optional.empty());
  }

  @Override
  public <A, I, E> Optional<LoadedStream<A>> load(AggregateDefinition<A, I, E> definition, I id,
      ReadConsistency consistency, Optional<LoadedStream<A>> remembered) {
    return loader.load(definition, id, consistency == ReadConsistency.STRONG, remembered);
  }

  @Override
  public <A, I, E> LoadedStream<A> append(AppendRequest<A, I, E> request) {
    return appender.append(client, request);
  }

  @Override
  public <A, I, E> Optional<EventPage<E>> readEvents(
      AggregateDefinition<A, I, E> definition, I id, long fromSeqNr, long toSeqNr) {
    return loader.readEvents(definition, id, fromSeqNr, toSeqNr);
  }

  @Override
  public <A, I, E> Optional<CommandRecord> findCommand(AggregateDefinition<A, I, E> definition, I id, String commandId) {
    return commands.find(client, definition.name(), definition.keys().idString(id), commandId);
  }

  @Override
  public <A, I, E> Map<I, LoadedStream<A>> loadAll(AggregateDefinition<A, I, E> definition, Collection<I> ids) {
    return loader.loadAll(definition, ids, true, Map.of());
  }

  @Override
  public <A, I, E> Map<I, LoadedStream<A>> loadAll(
      AggregateDefinition<A, I, E> definition, Collection<I> ids, ReadConsistency consistency) {
    return loader.loadAll(definition, ids, consistency == ReadConsistency.STRONG, Map.of());
  }

  @Override
  public <A, I, E> Map<I, LoadedStream<A>> loadAll(AggregateDefinition<A, I, E> definition, Collection<I> ids,
      ReadConsistency consistency, Map<I, LoadedStream<A>> remembered) {
    return loader.loadAll(definition, ids, consistency == ReadConsistency.STRONG, remembered);
  }

  /**
   * Shard by shard (0 first), and within a shard by aid: the order of the listing index. The index is
   * eventually consistent; each listed stream is read with a strongly consistent read.
   */
  @Override
  public <A, I, E> Page<LoadedStream<A>> listAll(AggregateDefinition<A, I, E> definition, PageRequest page) {
    return indexReader.listAll(definition, page);
  }

  @Override
  public <A, I, E> Optional<I> findUnique(AggregateDefinition<A, I, E> definition, IndexColumn column, String value) {
    return indexReader.findUnique(definition, column, value, true);
  }

  @Override
  public <A, I, E> Optional<I> findUnique(
      AggregateDefinition<A, I, E> definition, IndexColumn column, String value, ReadConsistency consistency) {
    return indexReader.findUnique(definition, column, value, consistency == ReadConsistency.STRONG);
  }

  @Override
  public <A, I, E> Page<I> findIndexed(
      AggregateDefinition<A, I, E> definition, IndexColumn column, String value, PageRequest page) {
    return indexReader.findIndexed(definition, column, value, page);
  }

  /**
   * An {@code UpdateItem} of the tip (slots set or removed, {@code aid} and listing key set, {@code a}
   * set to 0, the version only checked), or with unique values a {@code TransactWriteItems} of that
   * update plus one reservation {@code Put} per value.
   */
  @Override
  public <A, I, E> void reindex(AggregateDefinition<A, I, E> definition, LoadedStream<A> stream) {
    reindexer.reindex(definition, stream);
  }
}
