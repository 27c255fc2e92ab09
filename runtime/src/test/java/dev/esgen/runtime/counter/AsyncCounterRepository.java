package dev.esgen.runtime.counter;

import dev.esgen.runtime.AsyncEventStore;
import dev.esgen.runtime.aggregate.LayoutKind;
import dev.esgen.runtime.repository.AsyncEventSourcedRepository;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * The indexed counters of {@link IndexedCounterRepository} in the journal layout, shaped like a generated
 * asynchronous repository with a unique lookup.
 */
public final class AsyncCounterRepository extends AsyncEventSourcedRepository<Counter, CounterId, CounterEvent> {

  public AsyncCounterRepository(AsyncEventStore store) {
    super(store, IndexedCounterRepository.definition(store.objectMapper(), LayoutKind.JOURNAL, 0));
  }

  public CompletableFuture<Optional<Counter>> findByNote(String note) {
    return findByUnique(IndexedCounterRepository.NOTE, note);
  }

  public CompletableFuture<Counter> loadByNote(String note) {
    return loadByUnique(IndexedCounterRepository.NOTE, note);
  }
}
