package dev.esgen.runtime.counter;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.esgen.runtime.EventStore;
import dev.esgen.runtime.aggregate.AggregateDefinition;
import dev.esgen.runtime.aggregate.AggregateIds;
import dev.esgen.runtime.aggregate.AggregateKeys;
import dev.esgen.runtime.aggregate.LayoutKind;
import dev.esgen.runtime.aggregate.Replay;
import dev.esgen.runtime.aggregate.SnapshotPolicy;
import dev.esgen.runtime.aggregate.TipPolicy;
import dev.esgen.runtime.index.IndexColumns;
import dev.esgen.runtime.repository.EventSourcedRepository;

/** Shaped like a generated repository, with a policy knob the tests need. */
public final class CounterRepository extends EventSourcedRepository<Counter, CounterId, CounterEvent> {

  public static final String NAME = "counter";

  public CounterRepository(EventStore store) {
    this(store, SnapshotPolicy.every(100));
  }

  public CounterRepository(EventStore store, SnapshotPolicy policy) {
    super(store, definition(store.objectMapper(), policy));
  }

  /** A counter repository in the tip layout with {@code tip}. */
  public CounterRepository(EventStore store, TipPolicy tip) {
    super(store, builder(NAME, store.objectMapper(), SnapshotPolicy.every(100), LayoutKind.TIP).tipPolicy(tip).build());
  }

  /** A counter repository on {@code definition}, e.g. one with a replay that watches. */
  public CounterRepository(EventStore store, AggregateDefinition<Counter, CounterId, CounterEvent> definition) {
    super(store, definition);
  }

  public static AggregateDefinition<Counter, CounterId, CounterEvent> definition(
      ObjectMapper mapper, SnapshotPolicy policy) {
    return builder(mapper, policy).build();
  }

  public static AggregateDefinition.Builder<Counter, CounterId, CounterEvent> builder(
      ObjectMapper mapper, SnapshotPolicy policy) {
    return builder(NAME, mapper, policy);
  }

  /** The counter's definition under another aggregate name, e.g. one with index columns. */
  public static AggregateDefinition.Builder<Counter, CounterId, CounterEvent> builder(
      String name, ObjectMapper mapper, SnapshotPolicy policy) {
    return builder(name, mapper, policy, LayoutKind.JOURNAL);
  }

  /**
   * The counter's definition under {@code name} in {@code layout}: its keys check ids against that
   * layout's limit as generated keys do, so set the layout here rather than on the builder.
   */
  public static AggregateDefinition.Builder<Counter, CounterId, CounterEvent> builder(
      String name, ObjectMapper mapper, SnapshotPolicy policy, LayoutKind layout) {
    return AggregateDefinition.<Counter, CounterId, CounterEvent>builder(name, Counter.class)
        .keys(new Keys(name, layout))
        .eventCodec(new CounterCodecs.Events(mapper))
        .snapshotCodec(new CounterCodecs.Snapshots(mapper))
        .replay(new CounterReplay())
        .indexColumns(IndexColumns.none())
        .shards(4)
        .snapshotPolicy(policy)
        .layout(layout);
  }

  /** Written as the processor would generate them: the id string is checked by {@link AggregateIds}. */
  static final class Keys implements AggregateKeys<Counter, CounterId> {
    private final String name;
    private final LayoutKind layout;

    Keys(String name, LayoutKind layout) {
      this.name = name;
      this.layout = layout;
    }

    @Override
    public CounterId idOf(Counter state) {
      return state.id();
    }

    @Override
    public String idString(CounterId id) {
      return AggregateIds.requireValid(name, layout, id.value());
    }

    @Override
    public CounterId parseId(String idString) {
      return new CounterId(idString);
    }
  }

  /** The counter's replay, for tests that wrap it. */
  public static Replay<Counter, CounterEvent> replay() {
    return new CounterReplay();
  }

  /**
   * The counter's definition with {@link #tenfoldReplay()}: the same aggregate, keys, codecs and snapshot
   * fingerprint folded by other code, as a new release of a handler would.
   */
  public static AggregateDefinition<Counter, CounterId, CounterEvent> tenfoldDefinition(
      ObjectMapper mapper, SnapshotPolicy policy) {
    return builder(mapper, policy).replay(tenfoldReplay()).build();
  }

  /** The counter's replay counting every increment ten times: other code for the same events. */
  public static Replay<Counter, CounterEvent> tenfoldReplay() {
    Replay<Counter, CounterEvent> plain = replay();
    return new Replay<>() {
      @Override
      public Counter create(CounterEvent event) {
        return plain.create(event);
      }

      @Override
      public Counter apply(Counter state, CounterEvent event) {
        return plain.apply(state, event instanceof Incremented e ? new Incremented(e.by() * 10, e.tag()) : event);
      }
    };
  }

  static final class CounterReplay implements Replay<Counter, CounterEvent> {
    @Override
    public Counter create(CounterEvent event) {
      if (event instanceof CounterCreated created) {
        return Counter.create(created);
      }
      throw new IllegalArgumentException("a counter starts with CounterCreated, not " + event);
    }

    @Override
    public Counter apply(Counter state, CounterEvent event) {
      if (event instanceof Incremented e) {
        return state.apply(e);
      } else if (event instanceof Noted e) {
        return state.apply(e);
      }
      throw new IllegalArgumentException("no handler for " + event);
    }
  }
}
