package dev.esgen.runtime.counter;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.esgen.annotations.Normalization;
import dev.esgen.runtime.EventStore;
import dev.esgen.runtime.aggregate.AggregateDefinition;
import dev.esgen.runtime.aggregate.LayoutKind;
import dev.esgen.runtime.aggregate.SnapshotPolicy;
import dev.esgen.runtime.aggregate.TipPolicy;
import dev.esgen.runtime.index.IndexColumn;
import dev.esgen.runtime.index.IndexColumns;
import dev.esgen.runtime.query.Page;
import dev.esgen.runtime.query.PageRequest;
import dev.esgen.runtime.repository.EventSourcedRepository;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Counters with index columns, shaped like a generated repository with lookups: {@code name} is
 * {@code @Indexed} (slot 0, never changes after creation), {@code parity} is {@code @Indexed} (slot 1,
 * {@code even}/{@code odd} of the value: an odd increment changes it, an even one does not) and
 * {@code note} is {@code @Unique} ignoring case (the last note; a note over 64 characters clears it).
 * So {@code Incremented(2)} changes no index value, {@code Incremented(1)} an indexed one and
 * {@code Noted} a unique one.
 */
public final class IndexedCounterRepository extends EventSourcedRepository<Counter, CounterId, CounterEvent> {

  public static final String NAME = "indexed-counter";
  public static final IndexColumn NAME_COLUMN = IndexColumn.indexed("name");
  public static final IndexColumn PARITY = IndexColumn.indexed("parity");
  public static final IndexColumn NOTE = IndexColumn.unique("note", Normalization.CASE_INSENSITIVE);

  /** Indexed counters in {@code layout}; the tip calves at {@code tipMaxEvents} events when above 0. */
  public IndexedCounterRepository(EventStore store, LayoutKind layout, int tipMaxEvents) {
    super(store, definition(store.objectMapper(), layout, tipMaxEvents));
  }

  /**
   * Indexed counters in {@code layout} stored under the aggregate name {@code name}: for a test that walks
   * every stream of the type and must meet only its own.
   */
  public IndexedCounterRepository(EventStore store, String name, LayoutKind layout) {
    super(store, definition(store.objectMapper(), name, layout, 0));
  }

  public static AggregateDefinition<Counter, CounterId, CounterEvent> definition(
      ObjectMapper mapper, LayoutKind layout, int tipMaxEvents) {
    return definition(mapper, NAME, layout, tipMaxEvents);
  }

  static AggregateDefinition<Counter, CounterId, CounterEvent> definition(
      ObjectMapper mapper, String name, LayoutKind layout, int tipMaxEvents) {
    return CounterRepository.builder(name, mapper, SnapshotPolicy.every(5), layout)
        .indexColumns(new Columns())
        .tipPolicy(new TipPolicy(32 * 1024, tipMaxEvents, true))
        .build();
  }

  public Counter loadByNote(String note) {
    return loadByUnique(NOTE, note);
  }

  public Optional<Counter> findByNote(String note) {
    return findByUnique(NOTE, note);
  }

  public Counter loadByName(String name) {
    return loadByIndex(NAME_COLUMN, name);
  }

  public Optional<Counter> findByName(String name) {
    return findByIndex(NAME_COLUMN, name);
  }

  public Page<Counter> listByName(String name, PageRequest page) {
    return listByIndex(NAME_COLUMN, name, page);
  }

  public Page<Counter> listByParity(String parity, PageRequest page) {
    return listByIndex(PARITY, parity, page);
  }

  static final class Columns implements IndexColumns<Counter> {
    @Override
    public List<IndexColumn> columns() {
      return List.of(NAME_COLUMN, PARITY, NOTE);
    }

    @Override
    public Map<String, String> values(Counter state) {
      Map<String, String> values = new HashMap<>();
      values.put(NAME_COLUMN.name(), state.name());
      values.put(PARITY.name(), state.value() % 2 == 0 ? "even" : "odd");
      if (!state.lastNote().isEmpty()) {
        values.put(NOTE.name(), state.lastNote());
      }
      return values;
    }
  }
}
