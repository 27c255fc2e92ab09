package fixture;

import dev.esgen.annotations.Aggregate;
import dev.esgen.annotations.AggregateId;
import dev.esgen.annotations.DomainEvents;
import dev.esgen.annotations.Indexed;
import dev.esgen.annotations.Unique;

@DomainEvents
sealed interface MemberEvent permits MemberJoined, MemberRenamed {}

record MemberJoined(@AggregateId String id, @Unique String email) implements MemberEvent {}

record MemberRenamed(String name) implements MemberEvent {}

record Address(@Indexed String city) {}

@Aggregate(name = "member", events = MemberEvent.class)
record Member(@AggregateId String id, @Unique String email, @Indexed String name, Address address) {
  static Member join(MemberJoined e) {
    return new Member(e.id(), e.email(), "", null);
  }

  Member apply(MemberRenamed e) {
    return new Member(id, email, e.name(), address);
  }
}

@DomainEvents
sealed interface CardEvent permits CardIssued {}

record CardIssued(String number) implements CardEvent {}

@Aggregate(name = "card", events = CardEvent.class)
final class Card {
  @Indexed static String defaultHolder = "";
  @AggregateId public String number;

  Card() {}

  Card(@Unique String number) {
    this.number = number;
  }

  static Card issue(CardIssued e) {
    return new Card(e.number());
  }
}
