package fixture;

import dev.esgen.annotations.Aggregate;
import dev.esgen.annotations.AggregateId;
import dev.esgen.annotations.DomainEvents;

@DomainEvents
sealed interface JobEvent permits JobScheduled {}

record JobScheduled(String id, Urgent urgent) implements JobEvent {}

final class Urgent {}

@Aggregate(name = "job", events = JobEvent.class)
record Job(@AggregateId String id) {
  static Job schedule(JobScheduled e) {
    return new Job(e.id());
  }
}
