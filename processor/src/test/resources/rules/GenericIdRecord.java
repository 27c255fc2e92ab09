package fixture;

import dev.esgen.annotations.Aggregate;
import dev.esgen.annotations.AggregateId;
import dev.esgen.annotations.DomainEvents;

@DomainEvents
sealed interface BinEvent permits BinPlaced {}

record BinPlaced(Key<Integer> id) implements BinEvent {}

record Key<T>(String value) {}

@Aggregate(name = "bin", events = BinEvent.class)
record Bin(@AggregateId Key<Integer> id) {
  static Bin place(BinPlaced e) {
    return new Bin(e.id());
  }
}
