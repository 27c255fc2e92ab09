package dev.esgen.runtime.history;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.esgen.runtime.counter.CounterCreated;
import dev.esgen.runtime.counter.CounterEvent;
import dev.esgen.runtime.counter.CounterId;
import dev.esgen.runtime.counter.CounterRepository;
import dev.esgen.runtime.counter.Incremented;
import dev.esgen.runtime.repository.AppendOptions;
import dev.esgen.runtime.testing.CounterLayout;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Metadata DynamoDB cannot store is refused when it is made, not by DynamoDB in the middle of an append. */
class MetadataReviewTest {

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

  @Test
  void anEmptyAttributeNameIsRefusedWhenTheMetadataIsMade() {
    // DynamoDB refuses a map key "" ("Empty attribute name"): the append would fail with the SDK's
    // DynamoDbException, on the tip naming an expression value ":e" the caller never wrote.
    IllegalArgumentException with = assertThrows(IllegalArgumentException.class,
        () -> EventMetadata.none().with("", "v"));
    assertEquals("event metadata attribute names must not be empty", with.getMessage());
    assertThrows(IllegalArgumentException.class, () -> new EventMetadata(Optional.empty(), Optional.empty(),
        Optional.empty(), Map.of("", "v")));
  }
}
