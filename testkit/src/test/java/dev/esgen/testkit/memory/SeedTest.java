package dev.esgen.testkit.memory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.esgen.runtime.error.AggregateAlreadyExistsException;
import dev.esgen.runtime.history.RecordedEvent;
import dev.esgen.runtime.query.PageRequest;
import dev.esgen.testkit.member.Member;
import dev.esgen.testkit.member.MemberId;
import dev.esgen.testkit.member.MemberRepository;
import dev.esgen.testkit.meter.Meter;
import dev.esgen.testkit.meter.MeterEvent;
import dev.esgen.testkit.meter.MeterEvent.Installed;
import dev.esgen.testkit.meter.MeterEvent.ReadingTaken;
import dev.esgen.testkit.meter.MeterId;
import dev.esgen.testkit.meter.MeterRepository;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

class SeedTest {

  private final InMemoryEventStore store = InMemoryEventStore.create();
  private final MeterRepository meters = new MeterRepository(store);
  private final MeterId id = MeterId.random();
  private final StoredEvent installed =
      new StoredEvent("installed", 1, "{\"id\":{\"value\":\"" + id.value() + "\"},\"site\":\"cellar\"}");

  @Test
  void aStreamThatExistsIsNotSeededAgainAndKeepsItsHistory() {
    meters.create(new Installed(id, "attic"));

    AggregateAlreadyExistsException exists = assertThrows(AggregateAlreadyExistsException.class,
        () -> store.seed(meters.definition(), id, installed));

    assertEquals(id.value(), exists.aggregateId());
    assertEquals(new Meter(id, "attic", 0), meters.load(id));
  }

  @Test
  void aSeededStreamsValuesAreFoundAfterReindexNotAfterAnAppendThatLeavesThemUnchanged() {
    MemberRepository members = new MemberRepository(store);
    MemberId ann = MemberId.random();
    store.seed(members.definition(), ann, new StoredEvent("joined", 1,
        "{\"id\":{\"value\":\"" + ann.value() + "\"},\"team\":\"red\",\"email\":\"ann@example.com\"}"));

    members.transact(ann, member -> member.award(5));

    // An append writes the index values it changes, as on DynamoDB: the seeded ones stay unwritten.
    assertEquals(Optional.empty(), members.findByEmail("ann@example.com"));
    assertEquals(List.of(), members.listByTeam("red", PageRequest.first(10)).items());
    members.reindex(ann);
    assertEquals(ann, members.loadByEmail("ann@example.com").id());
    assertEquals(List.of(ann), members.listByTeam("red", PageRequest.first(10)).items().stream().map(Member::id).toList());
  }

  @Test
  void seedingNeedsAnEvent() {
    IllegalArgumentException none =
        assertThrows(IllegalArgumentException.class, () -> store.seed(meters.definition(), id));

    assertEquals("meter: seed needs at least one stored event", none.getMessage());
  }

  @Test
  void theFeedDeliversSeededEventsUpcastAndMovesPastOnesAnUpcasterDropped() throws Exception {
    List<RecordedEvent<MeterEvent>> seen = new CopyOnWriteArrayList<>();
    try (InMemoryFeed feed = InMemoryFeed.builder(store).projection("seen", meters.definition(), seen::add).start()) {
      store.seed(meters.definition(), id, installed, new StoredEvent("reading-taken", 1, "{\"kwh\":2}"),
          new StoredEvent("calibrated", 1, "{}"));
      feed.awaitCaughtUp(Duration.ofSeconds(10));

      assertEquals(List.of(new Installed(id, "cellar"), new ReadingTaken(2_000)),
          seen.stream().map(RecordedEvent::event).toList());
      assertEquals(3, feed.position("seen", meters.definition(), id));
    }
  }
}
