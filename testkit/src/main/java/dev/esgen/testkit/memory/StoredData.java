package dev.esgen.testkit.memory;

import dev.esgen.runtime.aggregate.LayoutKind;
import dev.esgen.runtime.internal.command.CommandRecord;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Everything one in-memory store holds, arranged as DynamoDB's tables are: the streams of each layout
 * apart (the journal's and the tip's tables), while unique-value reservations and command records are
 * shared by both layouts (they live in the snapshot table, one namespace per aggregate type).
 *
 * <p>As DynamoDB Streams does for the tables, it tells its {@link AppendWatcher}s of every stored append, in
 * the order the appends were stored.
 *
 * <p>Not thread-safe by itself: the store's layouts hold this object's monitor around every read and write,
 * so that an append's checks and its writes are one atomic step, as a DynamoDB transaction is.
 */
final class StoredData {

  /** The streams of one aggregate type in one layout. */
  record StreamType(LayoutKind layout, String aggregateName) {}

  /** A command record's key: the command id on one stream of one aggregate type. */
  record CommandKey(String aggregateName, String aid, String commandId) {}

  private final Map<StreamType, Map<String, StoredStream>> streams = new HashMap<>();
  private final Map<String, String> reservations = new HashMap<>();
  private final Map<CommandKey, CommandRecord> commands = new HashMap<>();
  private final List<AppendWatcher> watchers = new ArrayList<>();

  /**
   * The stream {@code aid} of {@code type} kept in {@code partition}, or null. On the journal the partition
   * is the shard its definition's count puts the id in (the count is part of every key, so after a change of
   * it a stream may be kept beside one of the same id in its old partition); on the tip always 0.
   */
  StoredStream stream(StreamType type, int partition, String aid) {
    Map<String, StoredStream> ofType = streams.get(type);
    return ofType == null ? null : ofType.get(key(partition, aid));
  }

  /** A new, empty stream {@code aid} of {@code type} in {@code partition}, created in shard {@code shard}. */
  StoredStream create(StreamType type, int partition, int shard, String aid) {
    StoredStream stream = new StoredStream(aid, shard, MemoryPosition.initial(type.layout()));
    streams.computeIfAbsent(type, t -> new HashMap<>()).put(key(partition, aid), stream);
    return stream;
  }

  private static String key(int partition, String aid) {
    return partition + "/" + aid;
  }

  /** Every stream of {@code type}, in no order. */
  Collection<StoredStream> streams(StreamType type) {
    Map<String, StoredStream> ofType = streams.get(type);
    return ofType == null ? List.of() : ofType.values();
  }

  /** The id string of the aggregate holding the reservation {@code key}, or null. */
  String holder(String key) {
    return reservations.get(key);
  }

  void reserve(String key, String aid) {
    reservations.put(key, aid);
  }

  /** Gives up the reservation {@code key} if {@code aid} holds it. */
  void release(String key, String aid) {
    reservations.remove(key, aid);
  }

  CommandRecord command(CommandKey key) {
    return commands.get(key);
  }

  void record(CommandKey key, CommandRecord record) {
    commands.put(key, record);
  }

  /** From now on, {@code watcher} hears of every append stored. */
  void watch(AppendWatcher watcher) {
    watchers.add(watcher);
  }

  void unwatch(AppendWatcher watcher) {
    watchers.remove(watcher);
  }

  /** Tells every watcher that events were appended to the stream {@code aid} of {@code type}. */
  void appended(StreamType type, String aid) {
    for (AppendWatcher watcher : watchers) {
      watcher.appended(type, aid);
    }
  }
}
