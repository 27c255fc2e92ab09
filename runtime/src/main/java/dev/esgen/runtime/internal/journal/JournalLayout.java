package dev.esgen.runtime.internal.journal;

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
 * The journal + snapshot layout: one journal item per event, and per stream a snapshot head row that
 * holds the optimistic-lock version, the last seq_nr and the latest snapshot.
 *
 * <p>A load is a strongly consistent {@code GetItem} of the head row, plus, when events were appended
 * since the snapshot, a strongly consistent {@code Query} of just those events (paginated). An append
 * is one {@code TransactWriteItems}: the new journal items, the head row conditioned on the loaded
 * version, and the snapshot rows the {@link dev.esgen.runtime.aggregate.SnapshotPolicy} asks for.
 * Index columns live on the head row (one attribute per {@code @Indexed} slot, written only when its
 * value changes) and unique values as reservation items in the snapshot table; see
 * {@code docs/schema.md}.
 * Keys are described in {@link dev.esgen.runtime.internal.keys.JournalKeys}, attributes in {@link JournalAttributes}.
 *
 * <pre>{@code
 * StorageLayout journal = new JournalLayout(client, StoreConfig.defaults(), recorder);
 * Optional<LoadedStream<BankAccount>> account = journal.load(definition, id);
 * }</pre>
 */
public final class JournalLayout implements StorageLayout {

  private final DynamoDbClient client;
  private final JournalLoader loader;
  private final JournalAppender appender;
  private final JournalIndexReader indexReader;
  private final CommandRecords commands;
  private final JournalReindexer reindexer;

  /**
   * @param client the client every request goes through; esgen's store hands in one that retries
   * @param recorder hears about skipped snapshots
   */
  public JournalLayout(DynamoDbClient client, StoreConfig config, OperationRecorder recorder) {
    this.client = client;
    this.loader = new JournalLoader(client, config, recorder);
    this.appender = new JournalAppender(config, recorder);
    this.indexReader = new JournalIndexReader(client, config, loader);
    this.commands = new CommandRecords(config.snapshotTable());
    this.reindexer = new JournalReindexer(client, config, recorder);
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
   * Shard by shard (0 first), within a shard in the order of the head rows' sort keys: by aid, except that
   * an aid continued by a character below {@code -}, or by {@code -} and up to 19 {@code 0}s followed by
   * nothing or a character below {@code 0}, sorts before the aid it continues.
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
   * An {@code UpdateItem} of the head row (slots set or removed, the version only checked), or with
   * unique values a {@code TransactWriteItems} of that update plus one reservation {@code Put} per value;
   * nothing at all for an aggregate without index columns.
   */
  @Override
  public <A, I, E> void reindex(AggregateDefinition<A, I, E> definition, LoadedStream<A> stream) {
    reindexer.reindex(definition, stream);
  }
}
