package fixture;

import dev.esgen.annotations.Aggregate;
import dev.esgen.annotations.AggregateId;
import dev.esgen.annotations.DomainEvents;
import java.util.List;

@DomainEvents
sealed interface JobEvent permits JobScheduled {}

record JobScheduled(String id, List<Step> steps) implements JobEvent {}

record Step(String name, Duration timeout) {}

final class Duration {
  private final long seconds;

  Duration(long seconds) {
    this.seconds = seconds;
  }

  public long getSeconds() {
    return seconds;
  }
}

@Aggregate(name = "job", events = JobEvent.class)
record Job(@AggregateId String id) {
  static Job schedule(JobScheduled e) {
    return new Job(e.id());
  }
}
