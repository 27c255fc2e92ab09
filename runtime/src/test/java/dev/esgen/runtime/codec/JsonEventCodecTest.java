package dev.esgen.runtime.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The base of generated event and snapshot codecs, with subclasses written as the processor writes them. */
class JsonEventCodecTest {

  sealed interface Event permits Opened, Deposited {}

  record Opened(String owner) implements Event {}

  record Deposited(long cents) implements Event {}

  private static final ObjectMapper MAPPER = EsgenJson.newObjectMapper();

  static final class Codec extends JsonEventCodec<Event> {
    Codec(List<String> names, Class<?>... classes) {
      super("account", names, MAPPER, classes);
    }

    Codec() {
      this(List.of("opened", "deposited"), Opened.class, Deposited.class);
    }

    @Override
    protected int indexOf(Event event) {
      if (event instanceof Opened) {
        return 0;
      }
      if (event instanceof Deposited) {
        return 1;
      }
      throw notGeneratedFor("account", event);
    }
  }

  static final class Snapshots extends JsonSnapshotCodec<Opened> {
    Snapshots() {
      super(MAPPER, Opened.class, "fingerprint");
    }
  }

  private final Codec codec = new Codec();

  @Test
  void storesEachEventUnderItsNameWithABodyWithoutClassNames() throws IOException {
    Event deposited = new Deposited(500);

    assertEquals("deposited", codec.typeName(deposited));
    assertEquals("{\"cents\":500}", new String(codec.encode(deposited), StandardCharsets.UTF_8));
    assertEquals(deposited, codec.decode("deposited", codec.encode(deposited)));
    assertEquals(List.of(new Opened("Ann")), codec.decodeStored("opened", 1, codec.encode(new Opened("Ann"))));
    assertEquals(1, codec.version(deposited));
  }

  @Test
  void anUnknownNameOrVersionIsRefusedWithTheAggregateAndTheName() {
    IllegalArgumentException name =
        assertThrows(IllegalArgumentException.class, () -> codec.decode("closed", new byte[] {'{', '}'}));
    assertEquals("aggregate account has no event type \"closed\"; its event types are [opened, deposited]",
        name.getMessage());
    IOException version = assertThrows(IOException.class, () -> codec.decodeStored("opened", 2, new byte[] {'{', '}'}));
    assertEquals("aggregate account cannot read version 2 of event type \"opened\": no upcaster reads it, and its"
        + " class is at another version", version.getMessage());
  }

  @Test
  void namesAndClassesMustPairUpOnce() {
    IllegalArgumentException count = assertThrows(IllegalArgumentException.class,
        () -> new Codec(List.of("opened"), Opened.class, Deposited.class));
    assertEquals("aggregate account: 1 event type names for 2 classes", count.getMessage());
    IllegalArgumentException twice = assertThrows(IllegalArgumentException.class,
        () -> new Codec(List.of("opened", "opened"), Opened.class, Deposited.class));
    assertEquals("aggregate account: event type name \"opened\" is given twice", twice.getMessage());
  }

  @Test
  void upcastersGetABodyAsAJsonObjectOnly() throws IOException {
    assertEquals(7, codec.tree("{\"cents\":7}".getBytes(StandardCharsets.UTF_8)).get("cents").asInt());
    IOException array = assertThrows(IOException.class, () -> codec.tree("[1]".getBytes(StandardCharsets.UTF_8)));
    assertEquals("a stored event body is not a JSON object but ARRAY", array.getMessage());
  }

  @Test
  void snapshotsKeepTheirFingerprint() throws IOException {
    Snapshots snapshots = new Snapshots();

    assertEquals(new Opened("Ann"), snapshots.decode(snapshots.encode(new Opened("Ann"))));
    assertEquals("fingerprint", snapshots.fingerprint());
  }
}
