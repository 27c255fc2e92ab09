package dev.esgen.processor.functional;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.esgen.processor.functional.parcel.Code;
import dev.esgen.processor.functional.parcel.Crate;
import dev.esgen.processor.functional.parcel.Fragile;
import dev.esgen.processor.functional.parcel.Label;
import dev.esgen.processor.functional.parcel.Line;
import dev.esgen.processor.functional.parcel.Pair;
import dev.esgen.processor.functional.parcel.Parcel;
import dev.esgen.processor.functional.parcel.ParcelEvent;
import dev.esgen.processor.functional.parcel.ParcelRepository;
import dev.esgen.processor.functional.parcel.Shape;
import dev.esgen.processor.functional.parcel.Size;
import dev.esgen.processor.functional.parcel.Sku;
import dev.esgen.processor.functional.parcel.Weight;
import dev.esgen.runtime.codec.EsgenJson;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The component shapes the processor's JSON check accepts (the {@code parcel} domain, compiled by this
 * module's test compilation) are written and read back equal by the generated codecs on esgen's mapper:
 * the check refuses nothing that works.
 */
class JsonShapesTest {

  private static final ObjectMapper MAPPER = EsgenJson.newObjectMapper();
  private static final UUID ID = UUID.fromString("0b3e7c55-1f2a-4d6e-9a8b-7c6d5e4f3a2b");
  private static final List<Line> LINES = List.of(new Line("A-1", 2), new Line("B-7", 1));

  private final ParcelRepository.EventCodec events = new ParcelRepository.EventCodec(MAPPER);

  private ParcelEvent roundTrip(ParcelEvent event) throws IOException {
    return events.decode(events.typeName(event), events.encode(event));
  }

  @Test
  void optionalsPresentAndEmpty() throws IOException {
    var present = new ParcelEvent.Registered(ID, Optional.of("leave at the door"), Optional.of(LINES.get(0)),
        OptionalInt.of(3), OptionalLong.of(1_250), OptionalDouble.of(99.5));
    var empty = new ParcelEvent.Registered(ID, Optional.empty(), Optional.empty(), OptionalInt.empty(),
        OptionalLong.empty(), OptionalDouble.empty());
    assertEquals(present, roundTrip(present));
    assertEquals(empty, roundTrip(empty));
    assertEquals(
        "{\"id\":\"0b3e7c55-1f2a-4d6e-9a8b-7c6d5e4f3a2b\",\"note\":null,\"firstLine\":null,\"floor\":null,"
            + "\"grams\":null,\"insuredValue\":null}",
        new String(events.encode(empty), StandardCharsets.UTF_8));
  }

  @Test
  void mapKeys() throws IOException {
    var sorted = new ParcelEvent.Sorted(
        Map.of(ID, "first"),
        Map.of(Size.SMALL, 2, Size.LARGE, 1),
        Map.of(Instant.parse("2026-01-02T03:04:05Z"), "sorted"),
        Map.of(new Sku("A-1"), 4),
        Map.of(new Code("x7"), "seven"),
        Map.of("bin-3", LINES));
    assertEquals(sorted, roundTrip(sorted));
  }

  @Test
  void collectionsNestedEmptyAndGenericRecords() throws IOException {
    var packed = new ParcelEvent.Packed(LINES, Set.of("fragile", "upright"), new Fragile(), new Pair<>("30x20", 10));
    assertEquals(packed, roundTrip(packed));
  }

  @Test
  void abstractTypesWithTypeInformationAndTheJdkOnesJacksonReads() throws IOException {
    var measured = new ParcelEvent.Measured(new Shape.Box(30, 20, 10), List.of(new Shape.Tube(90, 8)), "anything",
        7, "text");
    ParcelEvent read = roundTrip(measured);
    assertEquals(measured, read);
    assertInstanceOf(Shape.Box.class, ((ParcelEvent.Measured) read).shape());
  }

  @Test
  void classesWithGettersAndCreatorsAndAnInnerClassField() throws IOException {
    var weighed = new ParcelEvent.Weighed(new Weight(1_250), new Label("this side up"), new Crate("pine", "red"));
    assertEquals(weighed, roundTrip(weighed));
  }

  @Test
  void arrays() throws IOException {
    var stamped = (ParcelEvent.Stamped) roundTrip(new ParcelEvent.Stamped(new int[] {3, 1, 4}));
    assertArrayEquals(new int[] {3, 1, 4}, stamped.stamps());
  }

  @Test
  void snapshotWithAnOptionalAndEnumKeys() throws IOException {
    ParcelRepository.SnapshotCodec snapshots = new ParcelRepository.SnapshotCodec(MAPPER);
    for (Parcel parcel : List.of(
        new Parcel(ID, Optional.of("leave at the door"), Map.of(Size.SMALL, 2), LINES),
        new Parcel(ID, Optional.empty(), Map.of(), List.of()))) {
      assertEquals(parcel, snapshots.decode(snapshots.encode(parcel)));
    }
  }
}
