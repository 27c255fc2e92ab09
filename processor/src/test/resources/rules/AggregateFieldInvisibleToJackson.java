package fixture;

import dev.esgen.annotations.Aggregate;
import dev.esgen.annotations.AggregateId;
import dev.esgen.annotations.DomainEvents;

@DomainEvents
sealed interface CounterEvent permits CounterOpened, CounterAdded {}

record CounterOpened(String id) implements CounterEvent {}

record CounterAdded(long amount) implements CounterEvent {}

@Aggregate(name = "counter", events = CounterEvent.class)
final class Counter {
  @AggregateId private final String id;
  private final long total; // read through total() only

  public Counter() {
    this(null, 0);
  }

  Counter(String id, long total) {
    this.id = id;
    this.total = total;
  }

  public String getId() {
    return id;
  }

  long total() {
    return total;
  }

  static Counter open(CounterOpened e) {
    return new Counter(e.id(), 0);
  }

  Counter apply(CounterAdded e) {
    return new Counter(id, total + e.amount());
  }
}
