package dev.esgen.runtime.aggregate;

import dev.esgen.runtime.codec.EventCodec;
import dev.esgen.runtime.codec.SnapshotCodec;
import dev.esgen.runtime.index.IndexColumns;
import dev.esgen.runtime.internal.AggregateNames;
import dev.esgen.runtime.internal.keys.IndexKeys;
import java.util.Objects;

/**
 * Everything the runtime needs to know about one aggregate type, assembled by generated code.
 *
 * <p>A generated {@code FooRepository} builds its definition in {@code FooRepository.definition(mapper)};
 * tests and tools may build one by hand the same way:
 *
 * <pre>{@code
 * AggregateDefinition<BankAccount, AccountId, AccountEvent> definition =
 *     AggregateDefinition.<BankAccount, AccountId, AccountEvent>builder("bank-account", BankAccount.class)
 *         .keys(new BankAccountRepository.Keys())
 *         .eventCodec(new BankAccountRepository.EventCodec(mapper))
 *         .snapshotCodec(new BankAccountRepository.SnapshotCodec(mapper))
 *         .replay(new BankAccountRepository.Replay())
 *         .indexColumns(new BankAccountRepository.IndexColumns())
 *         .shards(4)
 *         .snapshotPolicy(SnapshotPolicy.every(100))
 *         .layout(LayoutKind.TIP)                       // optional, JOURNAL by default
 *         .tipPolicy(TipPolicy.defaults())               // used by the tip layout only
 *         .build();
 * }</pre>
 *
 * <p>A definition refuses more {@code @Indexed} columns than its layout's table can index, with an
 * {@link IllegalArgumentException}: 20 on the journal (DynamoDB's global secondary indexes per table), 19
 * on the tip, whose listing index takes one of them.
 *
 * @param layout which storage layout holds the type's streams
 * @param tipPolicy calving and snapshot settings of the tip layout; ignored by the journal layout
 * @param <A> the aggregate type
 * @param <I> its id type
 * @param <E> the sealed root of its events
 */
public record AggregateDefinition<A, I, E>(
    String name,
    Class<A> aggregateType,
    AggregateKeys<A, I> keys,
    EventCodec<E> eventCodec,
    SnapshotCodec<A> snapshotCodec,
    Replay<A, E> replay,
    IndexColumns<A> indexColumns,
    int shards,
    SnapshotPolicy snapshotPolicy,
    LayoutKind layout,
    TipPolicy tipPolicy) {

  /**
   * Checks the parts.
   *
   * @throws NullPointerException when a part is missing
   * @throws IllegalArgumentException when the name or the shards are invalid, or there are more {@code @Indexed}
   *     columns than a table has indexes
   */
  public AggregateDefinition {
    Objects.requireNonNull(name, "name");
    if (!AggregateNames.isStoredName(name)) {
      throw new IllegalArgumentException(
          "aggregate name '" + name + "' must be lower-case letters and digits separated by single '-'");
    }
    Objects.requireNonNull(aggregateType, "aggregateType");
    Objects.requireNonNull(keys, "keys");
    Objects.requireNonNull(eventCodec, "eventCodec");
    Objects.requireNonNull(snapshotCodec, "snapshotCodec");
    Objects.requireNonNull(replay, "replay");
    Objects.requireNonNull(indexColumns, "indexColumns");
    if (shards < 1) {
      throw new IllegalArgumentException("aggregate " + name + ": shards must be at least 1, was " + shards);
    }
    Objects.requireNonNull(snapshotPolicy, "snapshotPolicy");
    Objects.requireNonNull(layout, "layout");
    Objects.requireNonNull(tipPolicy, "tipPolicy");
    int slots = indexColumns.slotted().size();
    if (slots > IndexKeys.maxSlots(layout)) {
      throw new IllegalArgumentException("aggregate " + name + " has " + slots + " @Indexed columns, but a DynamoDB"
          + " table has at most " + IndexKeys.MAX_SLOTS + " global secondary indexes"
          + (layout == LayoutKind.TIP ? " and the tip table's listing index takes one of them, so a tip-layout"
              + " aggregate can use " + IndexKeys.MAX_TIP_SLOTS : "")
          + ": make some of them plain components, or @Unique");
    }
  }

  /**
   * This definition stored in {@code layout} with {@code tipPolicy}, everything else unchanged: for
   * running the same aggregate on another layout (in a test, or while preparing a migration). Data does
   * not move between layouts by itself. Ids are checked against the new layout's limit as well as against
   * the one the keys were made for (a generated aggregate's declared layout), so none is sent that a key of
   * either could not hold.
   *
   * <pre>{@code
   * var onTip = BankAccountRepository.definition(mapper).withLayout(LayoutKind.TIP, TipPolicy.defaults());
   * var accounts = BankAccountRepository.withDefinition(store, onTip);
   * }</pre>
   */
  public AggregateDefinition<A, I, E> withLayout(LayoutKind layout, TipPolicy tipPolicy) {
    // The keys check ids against the layout the aggregate declares; on another one, against that one too.
    AggregateKeys<A, I> checked = layout == this.layout ? keys : LayoutCheckedKeys.of(name, layout, keys);
    return new AggregateDefinition<>(name, aggregateType, checked, eventCodec, snapshotCodec, replay, indexColumns,
        shards, snapshotPolicy, layout, tipPolicy);
  }

  /** Starts a definition of the aggregate type stored under {@code name}. */
  public static <A, I, E> Builder<A, I, E> builder(String name, Class<A> aggregateType) {
    return new Builder<>(name, aggregateType);
  }

  /**
   * Collects the parts of an {@link AggregateDefinition}; every part but shards, the policies and the
   * layout (default {@link LayoutKind#JOURNAL}) is required.
   *
   * <pre>{@code
   * AggregateDefinition<Counter, CounterId, CounterEvent> counters =
   *     AggregateDefinition.<Counter, CounterId, CounterEvent>builder("counter", Counter.class)
   *         .keys(keys).eventCodec(events).snapshotCodec(snapshots).replay(replay)
   *         .indexColumns(IndexColumns.none())
   *         .build();
   * }</pre>
   */
  public static final class Builder<A, I, E> {
    private final String name;
    private final Class<A> aggregateType;
    private AggregateKeys<A, I> keys;
    private EventCodec<E> eventCodec;
    private SnapshotCodec<A> snapshotCodec;
    private Replay<A, E> replay;
    private IndexColumns<A> indexColumns;
    private int shards = 4;
    private SnapshotPolicy snapshotPolicy = SnapshotPolicy.every(100);
    private LayoutKind layout = LayoutKind.JOURNAL;
    private TipPolicy tipPolicy = TipPolicy.defaults();

    private Builder(String name, Class<A> aggregateType) {
      this.name = name;
      this.aggregateType = aggregateType;
    }

    /** How ids are read from states and written into keys (required). */
    public Builder<A, I, E> keys(AggregateKeys<A, I> keys) {
      this.keys = keys;
      return this;
    }

    /** How events are written and read (required). */
    public Builder<A, I, E> eventCodec(EventCodec<E> eventCodec) {
      this.eventCodec = eventCodec;
      return this;
    }

    /** How states are written to and read from snapshots (required). */
    public Builder<A, I, E> snapshotCodec(SnapshotCodec<A> snapshotCodec) {
      this.snapshotCodec = snapshotCodec;
      return this;
    }

    /** How states are built from events (required). */
    public Builder<A, I, E> replay(Replay<A, E> replay) {
      this.replay = replay;
      return this;
    }

    /** The {@code @Indexed} and {@code @Unique} columns (required; {@link IndexColumns#none()} for none). */
    public Builder<A, I, E> indexColumns(IndexColumns<A> indexColumns) {
      this.indexColumns = indexColumns;
      return this;
    }

    /** The partition-key shards the type's streams spread over, 4 when not set; fixed once data is written. */
    public Builder<A, I, E> shards(int shards) {
      this.shards = shards;
      return this;
    }

    /** When the journal layout takes snapshots; every 100 events when not set. */
    public Builder<A, I, E> snapshotPolicy(SnapshotPolicy snapshotPolicy) {
      this.snapshotPolicy = snapshotPolicy;
      return this;
    }

    /** How the streams are stored; {@link LayoutKind#JOURNAL} when not set. */
    public Builder<A, I, E> layout(LayoutKind layout) {
      this.layout = layout;
      return this;
    }

    /** When the tip layout moves its events into batch items; {@link TipPolicy#defaults()} when not set. */
    public Builder<A, I, E> tipPolicy(TipPolicy tipPolicy) {
      this.tipPolicy = tipPolicy;
      return this;
    }

    /**
     * The definition of the parts set.
     *
     * @throws NullPointerException when the keys, a codec, the replay or the index columns are missing
     * @throws IllegalArgumentException when the name or the shards are invalid, or there are more
     *     {@code @Indexed} columns than a table has indexes
     */
    public AggregateDefinition<A, I, E> build() {
      return new AggregateDefinition<>(name, aggregateType, keys, eventCodec, snapshotCodec, replay, indexColumns,
          shards, snapshotPolicy, layout, tipPolicy);
    }
  }
}
