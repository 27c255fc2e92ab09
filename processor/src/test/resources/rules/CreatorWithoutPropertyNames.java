package fixture;

import com.fasterxml.jackson.annotation.JsonCreator;
import dev.esgen.annotations.Aggregate;
import dev.esgen.annotations.AggregateId;
import dev.esgen.annotations.DomainEvents;

@DomainEvents
sealed interface CounterEvent permits CounterOpened, CounterRenamed {}

record CounterOpened(String id) implements CounterEvent {}

final class CounterRenamed implements CounterEvent {
  private final String from;
  private final String to;

  @JsonCreator
  public CounterRenamed(String from, String to) { // unnamed parameters
    this.from = from;
    this.to = to;
  }

  public String getFrom() {
    return from;
  }

  public String getTo() {
    return to;
  }
}

@Aggregate(name = "counter", events = CounterEvent.class)
record Counter(@AggregateId String id) {
  static Counter open(CounterOpened e) {
    return new Counter(e.id());
  }

  Counter apply(CounterRenamed e) {
    return this;
  }
}
