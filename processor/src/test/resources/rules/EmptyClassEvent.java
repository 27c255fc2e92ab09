package fixture;

import dev.esgen.annotations.Aggregate;
import dev.esgen.annotations.AggregateId;
import dev.esgen.annotations.DomainEvents;

@DomainEvents
sealed interface CounterEvent permits CounterOpened, CounterReset {}

record CounterOpened(String id) implements CounterEvent {}

final class CounterReset implements CounterEvent {}

@Aggregate(name = "counter", events = CounterEvent.class)
record Counter(@AggregateId String id) {
  static Counter open(CounterOpened e) {
    return new Counter(e.id());
  }

  Counter apply(CounterReset e) {
    return this;
  }
}
