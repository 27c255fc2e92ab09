package fixture;

import dev.esgen.annotations.Aggregate;
import dev.esgen.annotations.AggregateId;
import dev.esgen.annotations.DomainEvents;
import java.util.List;

@DomainEvents
sealed interface TillEvent permits TillOpened, TillClosed {}

record TillOpened(String id) implements TillEvent {}

record TillClosed() implements TillEvent {}

@Aggregate(name = "till", events = TillEvent.class)
record Till(@AggregateId String id, boolean closed) {
  static Till open(TillOpened... e) {
    return new Till(e[0].id(), false);
  }

  Till apply(TillClosed... e) {
    return new Till(id, true);
  }

  // Helpers and commands with varargs are no handlers: no error.
  static int count(TillClosed... closings) {
    return closings.length;
  }

  List<TillEvent> closeAll(TillClosed first, TillClosed... more) {
    return List.of(first);
  }

  private static List<TillEvent> emit(TillEvent... events) {
    return List.of(events);
  }
}
