package dev.esgen.testkit.contract;

import dev.esgen.testkit.memory.InMemoryEventStore;
import dev.esgen.testkit.memory.StoredEvent;
import dev.esgen.testkit.meter.MeterId;

/** Older stored forms in the in-memory store, seeded with {@link InMemoryEventStore#seed}. */
class InMemoryStoredFormsTest extends StoredFormsContract {

  private static final InMemoryEventStore STORE = InMemoryEventStore.create();

  InMemoryStoredFormsTest() {
    super(STORE);
  }

  @Override
  void seed(MeterId id, StoredEvent... events) {
    STORE.seed(meters().definition(), id, events);
  }
}
