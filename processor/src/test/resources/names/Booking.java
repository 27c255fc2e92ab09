package fixture;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.esgen.annotations.Aggregate;
import dev.esgen.annotations.AggregateId;
import dev.esgen.annotations.DomainEvents;
import dev.esgen.annotations.EventType;
import dev.esgen.annotations.Upcast;
import java.util.List;

/** Stored names with what ends a comment or a Javadoc tag, which the codec's Javadoc names. */
@DomainEvents
sealed interface BookingEvent permits Booked {}

@EventType(value = "booked */ {@code x}", version = 2)
record Booked(String id) implements BookingEvent {
  @Upcast(from = 1)
  static ObjectNode renamed(ObjectNode v1) {
    return v1.put("id", v1.remove("ref").asText());
  }

  @Upcast(type = "gone */ <b>&</b>", from = 1)
  static List<BookingEvent> gone(ObjectNode v1) {
    return List.of();
  }
}

@Aggregate(name = "booking", events = BookingEvent.class)
record Booking(@AggregateId String id) {
  static Booking open(Booked e) {
    return new Booking(e.id());
  }
}
