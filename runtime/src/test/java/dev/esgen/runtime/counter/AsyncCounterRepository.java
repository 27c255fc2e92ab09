package dev.esgen.runtime.counter;

import dev.esgen.runtime.AsyncEventStore;
import dev.esgen.runtime.aggregate.LayoutKind;
import dev.esgen.runtime.query.Page;
import dev.esgen.runtime.query.PageRequest;
import dev.esgen.runtime.repository.AsyncEventSourcedRepository;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * The indexed counters of {@link IndexedCounterRepository}, in the journal layout unless a constructor
 * says otherwise, shaped like a generated asynchronous repository with a unique lookup.
 */
public final class AsyncCounterRepository extends AsyncEventSourcedRepository<Counter, CounterId, CounterEvent> {

  public AsyncCounterRepository(AsyncEventStore store) {
    super(store, IndexedCounterRepository.definition(store.objectMapper(), LayoutKind.JOURNAL, 0));
  }

  /**
   * Indexed counters stored under the aggregate name {@code name}: for a test that lists every stream of
   * the type and must meet only its own.
   */
  public AsyncCounterRepository(AsyncEventStore store, String name) {
    this(store, name, LayoutKind.JOURNAL);
  }

  /** Indexed counters in {@code layout}; the tip calves at {@code tipMaxEvents} events when above 0. */
  public AsyncCounterRepository(AsyncEventStore store, LayoutKind layout, int tipMaxEvents) {
    super(store, IndexedCounterRepository.definition(store.objectMapper(), layout, tipMaxEvents));
  }

  /** Indexed counters in {@code layout} under the aggregate name {@code name}. */
  public AsyncCounterRepository(AsyncEventStore store, String name, LayoutKind layout) {
    super(store, IndexedCounterRepository.definition(store.objectMapper(), name, layout, 0));
  }

  public CompletableFuture<Optional<Counter>> findByName(String name) {
    return findByIndex(IndexedCounterRepository.NAME_COLUMN, name);
  }

  public CompletableFuture<Page<Counter>> listByName(String name, PageRequest page) {
    return listByIndex(IndexedCounterRepository.NAME_COLUMN, name, page);
  }

  public CompletableFuture<Optional<Counter>> findByNote(String note) {
    return findByUnique(IndexedCounterRepository.NOTE, note);
  }

  public CompletableFuture<Counter> loadByNote(String note) {
    return loadByUnique(IndexedCounterRepository.NOTE, note);
  }
}
