package dev.esgen.testkit.member;

import dev.esgen.annotations.DomainEvents;
import dev.esgen.annotations.EventType;

/** What happens to a club member. */
@DomainEvents
public sealed interface MemberEvent {

  @EventType("joined")
  record Joined(MemberId id, String team, String email) implements MemberEvent {}

  @EventType("points-awarded")
  record PointsAwarded(int points) implements MemberEvent {}

  @EventType("team-changed")
  record TeamChanged(String team) implements MemberEvent {}

  @EventType("email-changed")
  record EmailChanged(String email) implements MemberEvent {}

  @EventType("noted")
  record Noted(String text) implements MemberEvent {}
}
