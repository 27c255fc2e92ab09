package fixture;

import dev.esgen.annotations.Aggregate;
import dev.esgen.annotations.AggregateId;
import dev.esgen.annotations.DomainEvents;
import java.util.List;

@DomainEvents
sealed interface JobEvent permits JobScheduled, JobShaped {}

record JobScheduled(String id, Runnable task) implements JobEvent {}

record JobShaped(Shape shape) implements JobEvent {}

interface Shape {}

record Circle(int radius) implements Shape {}

@Aggregate(name = "job", events = JobEvent.class)
record Job(@AggregateId String id, List<Shape> shapes) {
  static Job schedule(JobScheduled e) {
    return new Job(e.id(), List.of());
  }

  Job apply(JobShaped e) {
    return new Job(id, List.of(e.shape()));
  }
}
