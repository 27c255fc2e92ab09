package dev.esgen.testkit.contract;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.esgen.runtime.EventStore;
import dev.esgen.runtime.error.EventDecodingException;
import dev.esgen.runtime.error.UnexpectedEventException;
import dev.esgen.runtime.history.RecordedEvent;
import dev.esgen.runtime.repository.Versioned;
import dev.esgen.testkit.memory.StoredEvent;
import dev.esgen.testkit.meter.Meter;
import dev.esgen.testkit.meter.MeterEvent;
import dev.esgen.testkit.meter.MeterEvent.Installed;
import dev.esgen.testkit.meter.MeterEvent.ReadingTaken;
import dev.esgen.testkit.meter.MeterId;
import dev.esgen.testkit.meter.MeterRepository;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Reading what older code stored, on every store: a subclass seeds a stream in stored form (versions, an
 * alias, a retired type) its own way, the in-memory store with {@code seed}, DynamoDB Local with items put
 * as docs/schema.md describes them, and the same loads, histories and appends must follow on both.
 */
abstract class StoredFormsContract {

  private final MeterRepository meters;

  StoredFormsContract(EventStore store) {
    this.meters = new MeterRepository(store);
  }

  /** Stores the new stream {@code id} as {@code events}, as older code stored them, in one append. */
  abstract void seed(MeterId id, StoredEvent... events);

  MeterRepository meters() {
    return meters;
  }

  @Test
  void olderVersionsAliasesAndRetiredTypesAreReadThroughTheUpcasters() {
    MeterId id = MeterId.random();
    seedHistory(id);

    assertEquals(new Versioned<>(new Meter(id, "cellar", 4_500), 1, 5), meters.loadVersioned(id));
    List<RecordedEvent<MeterEvent>> history = meters.events(id).toList();
    assertEquals(List.of(1L, 2L, 3L, 4L), history.stream().map(RecordedEvent::seqNr).toList());
    assertEquals(List.of(new Installed(id, "cellar"), new ReadingTaken(3_000), new ReadingTaken(500),
        new ReadingTaken(1_000)), history.stream().map(RecordedEvent::event).toList());
    assertEquals(List.of("installed", "reading-taken", "reading-taken", "reading-taken"),
        history.stream().map(RecordedEvent::eventType).toList());
  }

  @Test
  void anAppendAfterTheOldHistoryStoresTheCurrentVersionAfterItsLastSeqNr() {
    MeterId id = MeterId.random();
    seedHistory(id);

    Versioned<Meter> read = meters.transact(id, meter -> meter.readTotal(5_000));

    assertEquals(new Versioned<>(new Meter(id, "cellar", 5_000), 2, 6), read);
    assertEquals(read, meters.loadVersioned(id));
    RecordedEvent<MeterEvent> last = meters.events(id).reduce((first, second) -> second).orElseThrow();
    assertEquals(6, last.seqNr());
    assertEquals(new ReadingTaken(500), last.event());
  }

  @Test
  void aVersionNewerThanTheCodeFailsTheLoadNamingTypeAndVersionButNotTheBody() {
    MeterId id = MeterId.random();
    seed(id, new StoredEvent("installed", 1, "{\"id\":{\"value\":\"" + id.value() + "\"},\"site\":\"attic\"}"),
        new StoredEvent("reading-taken", 3, "{\"joules\":\"secret-body\"}"));

    EventDecodingException failed = assertThrows(EventDecodingException.class, () -> meters.load(id));

    assertEquals(2, failed.seqNr());
    assertEquals("reading-taken", failed.eventType());
    assertEquals(3, failed.eventVersion());
    assertFalse(failed.getMessage().contains("secret-body"), failed.getMessage());
  }

  @Test
  void aStoredEventTheReplayRefusesFailsTheLoadNamingTheStreamAndItsSeqNr() {
    MeterId id = MeterId.random();
    String installed = "{\"id\":{\"value\":\"" + id.value() + "\"},\"site\":\"cellar\"}";
    seed(id, new StoredEvent("installed", 1, installed), new StoredEvent("reading-taken", 1, "{\"kwh\":3}"),
        new StoredEvent("installed", 1, installed));

    UnexpectedEventException failed = assertThrows(UnexpectedEventException.class, () -> meters.load(id));

    assertEquals(id.value(), failed.aggregateId());
    assertEquals(3, failed.seqNr());
    assertTrue(failed.getMessage().startsWith("cannot fold event 3 (stored as 'installed') of meter " + id.value()
        + ": "), failed.getMessage());
    assertFalse(failed.getMessage().contains("cellar"), failed.getMessage());
  }

  /**
   * Installed, a reading of version 1 (3 kWh), one of version 2 (500 Wh), one stored under the old name
   * {@code read} at version 1 (1 kWh) and a retired calibration: 4,500 Wh in five stored events.
   */
  private void seedHistory(MeterId id) {
    seed(id, new StoredEvent("installed", 1, "{\"id\":{\"value\":\"" + id.value() + "\"},\"site\":\"cellar\"}"),
        new StoredEvent("reading-taken", 1, "{\"kwh\":3}"),
        new StoredEvent("reading-taken", 2, "{\"wattHours\":500}"),
        new StoredEvent("read", 1, "{\"kwh\":1}"),
        new StoredEvent("calibrated", 1, "{\"offset\":2}"));
  }
}
