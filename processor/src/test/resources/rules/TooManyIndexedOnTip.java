package fixture;

import dev.esgen.annotations.Aggregate;
import dev.esgen.annotations.AggregateId;
import dev.esgen.annotations.DomainEvents;
import dev.esgen.annotations.Indexed;
import dev.esgen.annotations.Layout;
import dev.esgen.annotations.Unique;
import java.util.UUID;

@DomainEvents
sealed interface WideEvent permits WideCreated {}

record WideCreated(WideId id) implements WideEvent {}

record WideId(UUID value) {}

/** 20 @Indexed columns, one more than the tip layout's table can index; a @Unique one does not count. */
@Aggregate(name = "wide", events = WideEvent.class, layout = Layout.TIP)
record Wide(
    @AggregateId WideId id,
    @Unique String code,
    @Indexed String c1,
    @Indexed String c2,
    @Indexed String c3,
    @Indexed String c4,
    @Indexed String c5,
    @Indexed String c6,
    @Indexed String c7,
    @Indexed String c8,
    @Indexed String c9,
    @Indexed String c10,
    @Indexed String c11,
    @Indexed String c12,
    @Indexed String c13,
    @Indexed String c14,
    @Indexed String c15,
    @Indexed String c16,
    @Indexed String c17,
    @Indexed String c18,
    @Indexed String c19,
    @Indexed String c20) {
  static Wide create(WideCreated e) {
    return new Wide(e.id(), null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null);
  }
}
