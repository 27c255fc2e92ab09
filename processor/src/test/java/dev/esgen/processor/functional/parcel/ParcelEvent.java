package dev.esgen.processor.functional.parcel;

import dev.esgen.annotations.DomainEvents;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.Set;
import java.util.UUID;

/**
 * The events of a parcel: one of each component shape esgen's compile-time JSON check accepts, so that
 * a test proves each of them round-trips through the generated codec.
 */
@DomainEvents
public sealed interface ParcelEvent {

  /** {@code Optional} and its primitive variants, present and empty (esgen's mapper has the JDK 8 module). */
  record Registered(
      UUID id,
      Optional<String> note,
      Optional<Line> firstLine,
      OptionalInt floor,
      OptionalLong grams,
      OptionalDouble insuredValue) implements ParcelEvent {}

  /** Map keys Jackson writes and reads back: JDK types, enums, and types compiled here that say how. */
  record Sorted(
      Map<UUID, String> byId,
      Map<Size, Integer> bySize,
      Map<Instant, String> byTime,
      Map<Sku, Integer> bySku,
      Map<Code, String> byCode,
      Map<String, List<Line>> linesByBin) implements ParcelEvent {}

  /** Collections and nested records, an empty record, and a generic record used with type arguments. */
  record Packed(List<Line> lines, Set<String> labels, Fragile fragile, Pair<String, Integer> dimensions)
      implements ParcelEvent {}

  /** Abstract types with Jackson type information, and abstract JDK types Jackson reads. */
  record Measured(Shape shape, List<Shape> more, Object anything, Number count, CharSequence text)
      implements ParcelEvent {}

  /**
   * Classes compiled here that Jackson can see into and construct (a no-argument constructor or
   * {@code @JsonCreator}), one with an inner class as its field.
   */
  record Weighed(Weight weight, Label label, Crate crate) implements ParcelEvent {}

  /** An array: records compare arrays by reference, so the test compares its content. */
  record Stamped(int[] stamps) implements ParcelEvent {}
}
