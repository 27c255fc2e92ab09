package dev.esgen.testkit.meter;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.esgen.annotations.DomainEvents;
import dev.esgen.annotations.EventType;
import dev.esgen.annotations.Upcast;
import java.util.List;

/**
 * What happens to a meter; a domain that has evolved, for the tests of reading older stored forms. Readings
 * were stored in whole kilowatt-hours as {@code "kwh"} at version 1 and under the type name {@code "read"}
 * before that was renamed; calibrations were stored once and are no event of the meter any more.
 */
@DomainEvents
public sealed interface MeterEvent {

  @EventType("installed")
  record Installed(MeterId id, String site) implements MeterEvent {}

  @EventType(value = "reading-taken", version = 2, aliases = "read")
  record ReadingTaken(long wattHours) implements MeterEvent {

    @Upcast(from = 1)
    static ObjectNode wattHoursFromKilowattHours(ObjectNode v1) {
      return v1.put("wattHours", v1.remove("kwh").asLong() * 1_000);
    }

    @Upcast(type = "calibrated", from = 1)
    static List<MeterEvent> calibrationsAreNoReadings(ObjectNode v1) {
      return List.of();
    }
  }
}
