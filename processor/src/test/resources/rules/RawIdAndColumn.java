package fixture;

import dev.esgen.annotations.Aggregate;
import dev.esgen.annotations.AggregateId;
import dev.esgen.annotations.DomainEvents;
import dev.esgen.annotations.Indexed;

/** A wrapper made generic, perhaps to tag ids by what they identify. */
record Tagged<T>(String value) {}

@DomainEvents
sealed interface ParcelEvent permits ParcelSent {}

@SuppressWarnings("rawtypes")
record ParcelSent(Tagged id) implements ParcelEvent {}

@Aggregate(name = "parcel", events = ParcelEvent.class)
@SuppressWarnings("rawtypes")
record Parcel(
    @AggregateId Tagged id,
    @Indexed Tagged sender) {
  static Parcel send(ParcelSent e) {
    return new Parcel(e.id(), null);
  }
}
