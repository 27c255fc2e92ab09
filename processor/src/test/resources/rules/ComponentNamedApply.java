package fixture;

import dev.esgen.annotations.Aggregate;
import dev.esgen.annotations.AggregateId;
import dev.esgen.annotations.DomainEvents;

@DomainEvents
sealed interface SwitchEvent permits SwitchInstalled, SwitchFlipped {}

record SwitchInstalled(String id) implements SwitchEvent {}

record SwitchFlipped() implements SwitchEvent {}

/** A component named apply: its accessor apply() is no handler, whether javac declares it or the record does. */
@Aggregate(name = "switch", events = SwitchEvent.class)
record Switch(@AggregateId String id, boolean apply) {
  static Switch install(SwitchInstalled e) {
    return new Switch(e.id(), false);
  }

  Switch apply(SwitchFlipped e) {
    return new Switch(id, !apply);
  }
}

@DomainEvents
sealed interface LeverEvent permits LeverInstalled {}

record LeverInstalled(String id) implements LeverEvent {}

@Aggregate(name = "lever", events = LeverEvent.class)
record Lever(@AggregateId String id, String apply) {
  static Lever install(LeverInstalled e) {
    return new Lever(e.id(), "");
  }

  @Override
  public String apply() {
    return apply.strip();
  }
}
