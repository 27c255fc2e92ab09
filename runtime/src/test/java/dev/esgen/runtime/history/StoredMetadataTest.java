package dev.esgen.runtime.history;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.esgen.runtime.counter.CounterCreated;
import dev.esgen.runtime.counter.CounterEvent;
import dev.esgen.runtime.counter.CounterId;
import dev.esgen.runtime.counter.CounterRepository;
import dev.esgen.runtime.counter.Incremented;
import dev.esgen.runtime.repository.AppendOptions;
import dev.esgen.runtime.testing.CounterLayout;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Metadata through the store, on both layouts: empty values come back as stored; a string holding half of a
 * surrogate pair (no UTF-8 form) is refused before anything is sent. Stored, the SDK could not read back
 * any item holding it ("Unexpected low surrogate"): every load of the tip, and every history or load
 * reading those journal events, would fail after 20 attempts with StoreUnavailableException.
 */
class StoredMetadataTest {

  @ParameterizedTest
  @EnumSource(CounterLayout.class)
  void emptyValuesComeBackAsStored(CounterLayout layout) {
    CounterRepository counters = layout.repository();
    CounterId id = CounterId.random();
    counters.create(new CounterCreated(id, "c"));
    EventMetadata metadata = EventMetadata.none().withActor("").withCorrelationId("").with("k", "");
    counters.transact(id, AppendOptions.metadata(metadata), c -> List.<CounterEvent>of(new Incremented(1)));
    assertEquals(metadata, counters.events(id).toList().get(1).metadata());
  }

  @ParameterizedTest
  @EnumSource(CounterLayout.class)
  void metadataWithHalfASurrogatePairIsRefusedAndTheStreamStaysReadable(CounterLayout layout) {
    CounterRepository counters = layout.repository();
    CounterId id = CounterId.random();
    counters.create(new CounterCreated(id, "c"));

    IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> counters.transact(id,
        AppendOptions.metadata(EventMetadata.none().withActor("ann").with("k" + (char) 0xDC00, "v")),
        c -> List.<CounterEvent>of(new Incremented(1))));
    assertTrue(refused.getMessage().contains("half of a surrogate pair"), refused.getMessage());
    assertThrows(IllegalArgumentException.class, () -> EventMetadata.none().withActor("ann" + (char) 0xD800));

    assertEquals(0, counters.load(id).value());
    assertEquals(1, counters.events(id).count());
  }
}
