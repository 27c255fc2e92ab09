package dev.esgen.processor.functional.parcel;

import dev.esgen.annotations.Aggregate;
import dev.esgen.annotations.AggregateId;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/** An aggregate whose state holds an {@code Optional}, a map with enum keys and records. */
@Aggregate(name = "parcel", events = ParcelEvent.class)
public record Parcel(@AggregateId UUID id, Optional<String> note, Map<Size, Integer> sizes, List<Line> lines) {

  static Parcel register(ParcelEvent.Registered e) {
    return new Parcel(e.id(), e.note(), Map.of(), List.of());
  }

  Parcel apply(ParcelEvent.Sorted e) {
    return new Parcel(id, note, e.bySize(), lines);
  }

  Parcel apply(ParcelEvent.Packed e) {
    return new Parcel(id, note, sizes, e.lines());
  }

  Parcel apply(ParcelEvent.Measured e) {
    return this;
  }

  Parcel apply(ParcelEvent.Weighed e) {
    return this;
  }

  Parcel apply(ParcelEvent.Stamped e) {
    return this;
  }
}
