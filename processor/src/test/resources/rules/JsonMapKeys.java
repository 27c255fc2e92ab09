package fixture;

import dev.esgen.annotations.Aggregate;
import dev.esgen.annotations.AggregateId;
import dev.esgen.annotations.DomainEvents;
import java.util.Map;
import java.util.UUID;

@DomainEvents
sealed interface JobEvent permits JobScheduled {}

record JobScheduled(String id, Map<WorkerId, String> assigned, Map<Slot, String> planned) implements JobEvent {}

record WorkerId(UUID value) {}

final class Slot {
  private final int hour;

  Slot(int hour) {
    this.hour = hour;
  }

  @Override
  public String toString() {
    return Integer.toString(hour);
  }
}

@Aggregate(name = "job", events = JobEvent.class)
record Job(@AggregateId String id) {
  static Job schedule(JobScheduled e) {
    return new Job(e.id());
  }
}
