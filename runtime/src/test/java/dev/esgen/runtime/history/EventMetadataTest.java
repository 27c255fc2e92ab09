package dev.esgen.runtime.history;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.esgen.runtime.counter.CounterCreated;
import dev.esgen.runtime.counter.CounterEvent;
import dev.esgen.runtime.counter.CounterId;
import dev.esgen.runtime.counter.CounterRepository;
import dev.esgen.runtime.counter.Incremented;
import dev.esgen.runtime.internal.journal.JournalAttributes;
import dev.esgen.runtime.internal.tip.TipAttributes;
import dev.esgen.runtime.repository.AppendOptions;
import dev.esgen.runtime.testing.CounterLayout;
import dev.esgen.runtime.testing.TestDynamo;
import dev.esgen.runtime.testing.TipItems;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** Metadata given explicitly or by an EventContext, stored with every event and read back, on both layouts. */
class EventMetadataTest {

  @Test
  void completingFromEmptyMetadataOrCompletingEmptyMetadataGivesTheOther() {
    EventMetadata some = EventMetadata.none().withCorrelationId("request-1").with("channel", "web");
    assertEquals(some, some.orElse(EventMetadata.none()));
    assertEquals(some, EventMetadata.none().orElse(some));
    assertEquals(EventMetadata.none(), EventMetadata.none().orElse(EventMetadata.none()));
    assertEquals(EventMetadata.none().withCorrelationId("request-1").withActor("teller-7").with("channel", "branch"),
        EventMetadata.none().withActor("teller-7").with("channel", "branch").orElse(some));
  }

  @ParameterizedTest
  @EnumSource(CounterLayout.class)
  void explicitMetadataIsCompletedFromTheContextAndStoredWithEveryEvent(CounterLayout layout) {
    CounterRepository counters = layout.repository();
    CounterId id = CounterId.random();
    counters.create(new CounterCreated(id, "c"));
    EventMetadata explicit = EventMetadata.none().withActor("teller-7").with("channel", "branch");

    EventContext.with(EventMetadata.none().withCorrelationId("request-1").withActor("ignored").with("channel", "web"))
        .run(() -> counters.transact(id, AppendOptions.metadata(explicit),
            c -> List.of(new Incremented(1, "a"), new Incremented(2, "b"))));

    List<RecordedEvent<CounterEvent>> events = counters.events(id).toList();
    EventMetadata expected = EventMetadata.none()
        .withCorrelationId("request-1").withActor("teller-7").with("channel", "branch");
    assertEquals(EventMetadata.none(), events.get(0).metadata());
    assertEquals(expected, events.get(1).metadata());
    assertEquals(expected, events.get(2).metadata());
  }

  @ParameterizedTest
  @EnumSource(CounterLayout.class)
  void theContextAloneIsEnoughAndScopesNest(CounterLayout layout) {
    CounterRepository counters = layout.repository();
    CounterId id = CounterId.random();

    EventContext.with(EventMetadata.none().withCorrelationId("outer").withCausationId("message-9")).run(() -> {
      counters.create(new CounterCreated(id, "c"));
      EventContext.with(EventMetadata.none().withCorrelationId("inner"))
          .run(() -> counters.transact(id, c -> c.increment("x")));
    });
    counters.transact(id, c -> c.increment("outside"));

    List<EventMetadata> stored = counters.events(id).map(RecordedEvent::metadata).toList();
    assertEquals(List.of(
        EventMetadata.none().withCorrelationId("outer").withCausationId("message-9"),
        EventMetadata.none().withCorrelationId("inner").withCausationId("message-9"),
        EventMetadata.none()), stored);
    assertEquals(EventMetadata.none(), EventContext.current(), "the scope ends with its block");
  }

  @ParameterizedTest
  @EnumSource(CounterLayout.class)
  void anAppendWithoutMetadataStoresNoMetadataAttribute(CounterLayout layout) {
    CounterRepository counters = layout.repository();
    CounterId id = CounterId.random();
    counters.create(new CounterCreated(id, "c"));
    counters.transact(id, AppendOptions.metadata(EventMetadata.none().withActor("a")), c -> c.increment("x"));

    if (layout == CounterLayout.JOURNAL) {
      List<Map<String, AttributeValue>> items = TestDynamo.streamItems("journal", CounterRepository.NAME, id.value());
      assertFalse(items.get(0).containsKey(JournalAttributes.METADATA));
      assertEquals(Map.of("actor", AttributeValue.fromS("a")), items.get(1).get(JournalAttributes.METADATA).m());
    } else {
      List<AttributeValue> events = TipItems.of(id.value()).get(0).get(TipAttributes.EVENTS).l();
      assertFalse(events.get(0).m().containsKey(TipAttributes.METADATA));
      assertEquals(Map.of("ac", AttributeValue.fromS("a")), events.get(1).m().get(TipAttributes.METADATA).m());
    }
  }

  @Test
  void metadataIsKeptSmall() {
    EventMetadata many = EventMetadata.none();
    for (int k = 0; k < EventMetadata.MAX_ATTRIBUTES; k++) {
      many = many.with("k" + k, "v");
    }
    EventMetadata full = many;

    IllegalArgumentException tooMany = assertThrows(IllegalArgumentException.class, () -> full.with("one", "more"));
    IllegalArgumentException tooLarge = assertThrows(IllegalArgumentException.class,
        () -> EventMetadata.none().withActor("x".repeat(EventMetadata.MAX_BYTES + 1)));

    assertTrue(tooMany.getMessage().contains("at most 16 attributes"), tooMany.getMessage());
    assertTrue(tooLarge.getMessage().contains("at most 2048 bytes"), tooLarge.getMessage());
  }

  @Test
  void attributeNamesAreNamesDynamoDbCanStoreAsMapKeys() {
    IllegalArgumentException empty = assertThrows(IllegalArgumentException.class,
        () -> EventMetadata.none().with("", "v"));
    IllegalArgumentException halfAPair = assertThrows(IllegalArgumentException.class,
        () -> EventMetadata.none().with("k" + (char) 0xD800, "v"));

    assertTrue(empty.getMessage().contains("must not be empty"), empty.getMessage());
    assertThrows(IllegalArgumentException.class, () -> new EventMetadata(Optional.empty(), Optional.empty(),
        Optional.empty(), Map.of("", "v")));
    assertTrue(halfAPair.getMessage().contains("char 1 is half of a surrogate pair"), halfAPair.getMessage());
    assertEquals("v", EventMetadata.none().with(Character.toString(0x1F600), "v").attributes().get(Character.toString(0x1F600)));
  }
}
