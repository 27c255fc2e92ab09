package dev.esgen.testkit.meter;

import dev.esgen.annotations.Aggregate;
import dev.esgen.annotations.AggregateId;
import dev.esgen.testkit.meter.MeterEvent.Installed;
import dev.esgen.testkit.meter.MeterEvent.ReadingTaken;
import java.util.List;

/** A meter adding up the energy read from it. */
@Aggregate(name = "meter", events = MeterEvent.class)
public record Meter(@AggregateId MeterId id, String site, long wattHours) {

  static Meter install(Installed e) {
    return new Meter(e.id(), e.site(), 0);
  }

  Meter apply(ReadingTaken e) {
    return new Meter(id, site, wattHours + e.wattHours());
  }

  /** The reading that brings the meter to {@code total}; none when it shows that already. */
  public List<MeterEvent> readTotal(long total) {
    return total == wattHours ? List.of() : List.of(new ReadingTaken(total - wattHours));
  }
}
