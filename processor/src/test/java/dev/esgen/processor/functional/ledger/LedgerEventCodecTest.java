package dev.esgen.processor.functional.ledger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.esgen.runtime.codec.EsgenJson;
import dev.esgen.runtime.codec.UnknownEventTypeException;
import dev.esgen.runtime.codec.UnknownEventVersionException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The generated codec of an evolved domain, without a store: what each stored name and version reads as. */
class LedgerEventCodecTest {

  private final LedgerRepository.EventCodec codec = new LedgerRepository.EventCodec(EsgenJson.newObjectMapper());
  private final AccountNumber id = new AccountNumber("L-1");

  private List<LedgerEvent> read(String type, int version, String json) throws IOException {
    return codec.decodeStored(type, version, json.getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void everyEventIsWrittenAtItsCurrentVersionAndReadBackAsIs() throws IOException {
    List<LedgerEvent> events = List.of(new Opened(id, "Ann", "EUR"), new Deposited(5), new Withdrawn(3, "r"),
        new FeeCharged(1), new Closed());
    List<Integer> versions = List.of(2, 3, 1, 1, 1);
    for (int k = 0; k < events.size(); k++) {
      LedgerEvent event = events.get(k);
      assertEquals(versions.get(k), codec.version(event));
      assertEquals(List.of(event), codec.decodeStored(codec.typeName(event), codec.version(event), codec.encode(event)));
      assertEquals(event, codec.decode(codec.typeName(event), codec.encode(event)));
    }
  }

  @Test
  void olderVersionsAliasesAndRetiredTypesReadAsTheEventsTheyStandForNow() throws IOException {
    assertEquals(List.of(new Opened(id, "Ann", "EUR")), read("ledger-created", 1, "{\"id\":\"L-1\",\"name\":\"Ann\"}"));
    assertEquals(List.of(new Deposited(700)), read("money-deposited", 1, "{\"amount\":7}"));
    assertEquals(List.of(new Deposited(300)), read("money-deposited", 2, "{\"euros\":3}"));
    assertEquals(List.of(new Deposited(42)), read("cash-in", 1, "{\"cents\":42}"));
    assertEquals(List.of(new Withdrawn(9, "IBAN"), new FeeCharged(1)),
        read("transfer-booked", 1, "{\"cents\":9,\"fee\":1,\"to\":\"IBAN\"}"));
    assertEquals(List.of(), read("statement-sent", 1, "{}"));
    assertEquals(List.of(new Closed()), read("ledger-terminated", 1, "{}"));
  }

  @Test
  void aVersionNoUpcasterReadsIsRefused() {
    for (String type : List.of("money-deposited", "money-withdrawn", "transfer-booked")) {
      UnknownEventVersionException e = assertThrows(UnknownEventVersionException.class, () -> read(type, 4, "{}"));
      assertEquals("aggregate ledger cannot read version 4 of event type \"" + type + "\": no upcaster reads it,"
          + " and its class is at another version", e.getMessage());
    }
    assertThrows(UnknownEventVersionException.class, () -> read("money-deposited", 0, "{}"));
  }

  /** The exception names the name the event was stored under, as the decoding error around it does. */
  @Test
  void aVersionNoUpcasterReadsUnderAnAliasIsNamedByTheAlias() {
    for (String type : List.of("ledger-created", "ledger-terminated")) {
      UnknownEventVersionException e = assertThrows(UnknownEventVersionException.class, () -> read(type, 3, "{}"));
      assertEquals(type, e.typeName());
      assertTrue(e.getMessage().contains("version 3 of event type \"" + type + "\""), e.getMessage());
    }
  }

  @Test
  void anOldBodyThatIsNoJsonObjectIsRefusedBeforeAnyUpcasterSeesIt() {
    IOException e = assertThrows(IOException.class, () -> read("money-deposited", 1, "[1, 2]"));
    assertTrue(e.getMessage().startsWith("a stored event body is not a JSON object"), e.getMessage());
  }

  @Test
  void anUnknownNameIsRefusedWithTheKnownOnes() {
    UnknownEventTypeException e = assertThrows(UnknownEventTypeException.class, () -> read("interest-paid", 1, "{}"));
    assertEquals("aggregate ledger has no event type \"interest-paid\"; its event types are [ledger-opened,"
        + " money-deposited, money-withdrawn, fee-charged, ledger-closed]", e.getMessage());
  }
}
