package dev.esgen.runtime.error;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.annotation.JsonAnySetter;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.ValueInstantiationException;
import dev.esgen.runtime.codec.EsgenJson;
import dev.esgen.runtime.codec.JsonEventCodec;
import dev.esgen.runtime.codec.UnknownEventTypeException;
import dev.esgen.runtime.codec.UnknownEventVersionException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RedactedExceptionTest {

  private static final String SECRET = "ann@example.com";

  private final ObjectMapper mapper = EsgenJson.newObjectMapper();

  record Card(String number) {
    Card {
      if (!number.matches("[0-9]+")) {
        throw new IllegalArgumentException("not a card number: " + number);
      }
    }
  }

  record Wallet(List<Card> cards, Map<String, Integer> limits) {}

  @Test
  void mapKeysAreDataAndLeftOutOfThePath() {
    Exception e = assertThrows(Exception.class, () -> mapper.readValue(
        "{\"cards\":[],\"limits\":{\"" + SECRET + "\":\"many\"}}", Wallet.class));
    RedactedException redacted = RedactedException.of(e);
    assertEquals("InvalidFormatException at $.limits[*], line 1, column 41", redacted.summary());
    assertNothingQuotes(redacted);
  }

  /** Takes every property it does not declare: their names are data, as a map's keys are. */
  public static final class Profile {
    public int visits;
    private final Map<String, Integer> counts = new HashMap<>();

    @JsonAnySetter
    public void count(String name, Integer count) {
      counts.put(name, count);
    }
  }

  record Tally(String owner, @JsonAnySetter Map<String, Integer> counts) {}

  @Test
  void keysAnAnySetterTakesAreDataAndLeftOutOfThePath() {
    String undeclared = "{\"visits\":1,\"" + SECRET + "\":\"many\"}";
    RedactedException bean = RedactedException.of(
        assertThrows(Exception.class, () -> mapper.readValue(undeclared, Profile.class)));
    RedactedException creator = RedactedException.of(assertThrows(Exception.class,
        () -> mapper.readValue("{\"owner\":\"o\",\"" + SECRET + "\":\"many\"}", Tally.class)));
    RedactedException declared = RedactedException.of(
        assertThrows(Exception.class, () -> mapper.readValue("{\"visits\":\"many\"}", Profile.class)));

    assertEquals("InvalidFormatException at $[*], line 1, column 31", bean.summary());
    assertEquals("InvalidFormatException at $[*], line 1, column 32", creator.summary());
    assertEquals("InvalidFormatException at $.visits, line 1, column 11", declared.summary(),
        "a property the class declares is named");
    assertNothingQuotes(bean);
    assertNothingQuotes(creator);
    assertNothingQuotes(new EventDecodingException("member", "42", 3, "profile-updated", bean));
  }

  @Test
  void theWholeCauseChainIsRedactedKeepingClassesAndStackTraces() {
    ValueInstantiationException e = assertThrows(ValueInstantiationException.class, () -> mapper.readValue(
        "{\"cards\":[{\"number\":\"1\"},{\"number\":\"" + SECRET + "\"}],\"limits\":{}}", Wallet.class));
    RedactedException redacted = RedactedException.of(e);
    assertEquals(ValueInstantiationException.class.getName(), redacted.originalClassName());
    assertTrue(redacted.summary().startsWith("ValueInstantiationException at $.cards[1], line 1, column "),
        redacted.summary());
    RedactedException cause = (RedactedException) redacted.getCause();
    assertEquals(IllegalArgumentException.class.getName(), cause.originalClassName());
    assertEquals("IllegalArgumentException", cause.summary());
    assertEquals(List.of(e.getCause().getStackTrace()), List.of(cause.getStackTrace()));
    assertNull(cause.getCause());
    assertNothingQuotes(redacted);
    assertSame(redacted, RedactedException.of(redacted), "redacted once");
  }

  record Badge(String holder) {
    public String holder() {
      throw new IllegalStateException("no badge for " + SECRET);
    }
  }

  @Test
  void encodingFailuresNameTheExceptionAndWhereButQuoteNothing() {
    Exception e = assertThrows(Exception.class, () -> mapper.writeValueAsBytes(new Badge(SECRET)));
    EventEncodingException event = new EventEncodingException("member", "42", "badge-issued", e);
    SnapshotEncodingException snapshot = new SnapshotEncodingException("member", "42", 7, e);

    assertEquals("cannot encode event of type 'badge-issued' for member 42: JsonMappingException at $.holder",
        event.getMessage());
    assertEquals("cannot encode snapshot of member 42 at seq_nr 7: JsonMappingException at $.holder",
        snapshot.getMessage());
    assertNothingQuotes(event);
    assertNothingQuotes(snapshot);
  }

  record Opened(String owner) {}

  record Deposited(long cents) {}

  /** The codec the processor would generate for two events, whose failures are esgen's own. */
  static final class LedgerCodec extends JsonEventCodec<Record> {
    LedgerCodec(ObjectMapper mapper) {
      super("ledger", List.of("ledger-opened", "money-deposited"), mapper, Opened.class, Deposited.class);
    }

    @Override
    protected int indexOf(Record event) {
      return event instanceof Opened ? 0 : 1;
    }
  }

  @Test
  void esgensOwnReasonsForAnUnreadableStoredEventAreKeptAndOthersWithheld() {
    LedgerCodec codec = new LedgerCodec(mapper);
    byte[] body = "{}".getBytes(StandardCharsets.UTF_8);
    EventDecodingException type = new EventDecodingException("ledger", "L-1", 2, "coupon-used",
        assertThrows(UnknownEventTypeException.class, () -> codec.decodeStored("coupon-used", 1, body)));
    EventDecodingException version = new EventDecodingException("ledger", "L-1", 7, "money-deposited", 4,
        assertThrows(UnknownEventVersionException.class, () -> codec.decodeStored("money-deposited", 4, body)));
    EventDecodingException other = new EventDecodingException("ledger", "L-1", 3, "money-deposited",
        new IllegalArgumentException("not an amount: " + SECRET));

    assertEquals("cannot decode event 2 (type 'coupon-used') of ledger L-1: UnknownEventTypeException: aggregate"
        + " ledger has no event type \"coupon-used\"; its event types are [ledger-opened, money-deposited]",
        type.getMessage());
    assertEquals(UnknownEventTypeException.class.getName() + ": aggregate ledger has no event type \"coupon-used\";"
        + " its event types are [ledger-opened, money-deposited]", type.getCause().getMessage());
    assertEquals("cannot decode event 7 (type 'money-deposited', version 4) of ledger L-1:"
        + " UnknownEventVersionException: aggregate ledger cannot read version 4 of event type \"money-deposited\":"
        + " no upcaster reads it, and its class is at another version", version.getMessage());
    assertEquals("cannot decode event 3 (type 'money-deposited') of ledger L-1: IllegalArgumentException",
        other.getMessage());
    assertNothingQuotes(other);
  }

  private static void assertNothingQuotes(Throwable e) {
    StringWriter trace = new StringWriter();
    e.printStackTrace(new PrintWriter(trace));
    assertFalse(trace.toString().contains(SECRET), trace.toString());
  }
}
