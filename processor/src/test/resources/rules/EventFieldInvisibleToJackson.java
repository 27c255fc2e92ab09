package fixture;

import dev.esgen.annotations.Aggregate;
import dev.esgen.annotations.AggregateId;
import dev.esgen.annotations.DomainEvents;

@DomainEvents
sealed interface CounterEvent permits CounterOpened, CounterAdded {}

record CounterOpened(String id) implements CounterEvent {}

final class CounterAdded implements CounterEvent {
  private final long amount; // read through amount() only

  public CounterAdded() {
    this(0);
  }

  CounterAdded(long amount) {
    this.amount = amount;
  }

  long amount() {
    return amount;
  }
}

@Aggregate(name = "counter", events = CounterEvent.class)
record Counter(@AggregateId String id, long total) {
  static Counter open(CounterOpened e) {
    return new Counter(e.id(), 0);
  }

  Counter apply(CounterAdded e) {
    return new Counter(id, total + e.amount());
  }
}
