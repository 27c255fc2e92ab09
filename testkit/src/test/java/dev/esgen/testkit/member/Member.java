package dev.esgen.testkit.member;

import dev.esgen.annotations.Aggregate;
import dev.esgen.annotations.AggregateId;
import dev.esgen.annotations.Indexed;
import dev.esgen.annotations.Normalization;
import dev.esgen.annotations.Unique;
import dev.esgen.testkit.member.MemberEvent.EmailChanged;
import dev.esgen.testkit.member.MemberEvent.Joined;
import dev.esgen.testkit.member.MemberEvent.Noted;
import dev.esgen.testkit.member.MemberEvent.PointsAwarded;
import dev.esgen.testkit.member.MemberEvent.TeamChanged;
import java.util.List;

/**
 * The test kit's own aggregate: listed by {@code team}, found by {@code email} (unique, ignoring case).
 * It snapshots every 3 events and keeps one older snapshot, so that short streams already exercise
 * snapshots and their retention (tests on the tip layout calve every 5 events for the same reason).
 */
@Aggregate(name = "member", events = MemberEvent.class, snapshotEvery = 3, snapshotsToKeep = 1, async = true)
public record Member(
    @AggregateId MemberId id,
    @Indexed String team,
    @Unique(normalize = Normalization.CASE_INSENSITIVE) String email,
    int points,
    String note) {

  static Member join(Joined e) {
    return new Member(e.id(), e.team(), e.email(), 0, "");
  }

  Member apply(PointsAwarded e) {
    return new Member(id, team, email, points + e.points(), note);
  }

  Member apply(TeamChanged e) {
    return new Member(id, e.team(), email, points, note);
  }

  Member apply(EmailChanged e) {
    return new Member(id, team, e.email(), points, note);
  }

  Member apply(Noted e) {
    return new Member(id, team, email, points, e.text());
  }

  /** The event a new member joins with. */
  public static Joined joining(MemberId id, String team, String email) {
    if (team == null || team.isBlank()) {
      throw new IllegalArgumentException("a member joins a team");
    }
    return new Joined(id, team, email);
  }

  public List<MemberEvent> award(int more) {
    if (more <= 0) {
      throw new IllegalArgumentException("points must be positive, were " + more);
    }
    return List.of(new PointsAwarded(more));
  }

  /** Nothing to do when the member is in that team already. */
  public List<MemberEvent> moveTo(String newTeam) {
    return newTeam.equals(team) ? List.of() : List.of(new TeamChanged(newTeam));
  }

  public List<MemberEvent> changeEmail(String newEmail) {
    return List.of(new EmailChanged(newEmail));
  }

  public List<MemberEvent> note(String text) {
    return List.of(new Noted(text));
  }
}
