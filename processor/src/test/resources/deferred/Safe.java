package fixture;

import dev.esgen.annotations.Aggregate;
import dev.esgen.annotations.AggregateId;
import dev.esgen.annotations.DomainEvents;

@DomainEvents
sealed interface SafeEvent permits SafeOpened, SafeFilled {}

record SafeOpened(String id) implements SafeEvent {}

/** Holds {@code Money}, which does not exist until another processor generates it in the first round. */
record SafeFilled(Money money) implements SafeEvent {}

/** The aggregate names only Contents, which is written here; Contents holds the generated Money. */
record Contents(Money money) {}

@Aggregate(name = "safe", events = SafeEvent.class)
record Safe(@AggregateId String id, Contents contents) {
  static Safe open(SafeOpened e) {
    return new Safe(e.id(), null);
  }

  Safe apply(SafeFilled e) {
    return new Safe(id, new Contents(e.money()));
  }
}
