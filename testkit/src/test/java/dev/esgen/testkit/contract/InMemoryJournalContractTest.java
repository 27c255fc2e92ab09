package dev.esgen.testkit.contract;

import dev.esgen.runtime.EventStore;
import dev.esgen.testkit.junit.Backend;
import dev.esgen.testkit.junit.EsgenTestExtension;
import dev.esgen.testkit.time.MutableClock;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The storage contract on the in-memory store, following the journal layout's rules. */
class InMemoryJournalContractTest extends JournalStoreContract {

  private static final RecordingListener LISTENER = new RecordingListener();

  @RegisterExtension
  static final EsgenTestExtension ESGEN = EsgenTestExtension.create()
      .withBackend(Backend.IN_MEMORY)
      .withConfig(config -> config.withListener(LISTENER));

  InMemoryJournalContractTest(EventStore store, MutableClock clock) {
    super(store, clock, LISTENER);
  }
}
