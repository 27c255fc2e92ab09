package dev.esgen.testkit.contract;

import dev.esgen.runtime.EventStore;
import dev.esgen.testkit.junit.Backend;
import dev.esgen.testkit.junit.EsgenTestExtension;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The state cache contract on the in-memory store. */
class InMemoryStateCacheTest extends StateCacheContract {

  @RegisterExtension
  static final EsgenTestExtension ESGEN = EsgenTestExtension.create()
      .withBackend(Backend.IN_MEMORY)
      .withConfig(StateCacheContract::withCache);

  InMemoryStateCacheTest(EventStore store) {
    super(store);
  }
}
