package dev.esgen.testkit.contract;

import dev.esgen.runtime.aggregate.AggregateDefinition;
import dev.esgen.runtime.codec.EventCodec;
import dev.esgen.runtime.codec.SnapshotCodec;
import dev.esgen.runtime.index.IndexColumns;
import dev.esgen.testkit.member.Member;
import dev.esgen.testkit.member.MemberEvent;
import dev.esgen.testkit.member.MemberId;
import java.io.IOException;

/** Copies of the member's generated definition with one part changed, as a test needs them. */
final class Definitions {

  private Definitions() {}

  /** {@code definition} stored under another aggregate name: a type of the test's own, with no one else's streams. */
  static AggregateDefinition<Member, MemberId, MemberEvent> renamed(
      AggregateDefinition<Member, MemberId, MemberEvent> definition, String name) {
    return new AggregateDefinition<>(name, definition.aggregateType(), definition.keys(), definition.eventCodec(),
        definition.snapshotCodec(), definition.replay(), definition.indexColumns(), definition.shards(),
        definition.snapshotPolicy(), definition.layout(), definition.tipPolicy());
  }

  /** {@code definition} with {@code shards} shards: as after a change of {@code @Aggregate(shards)}. */
  static AggregateDefinition<Member, MemberId, MemberEvent> withShards(
      AggregateDefinition<Member, MemberId, MemberEvent> definition, int shards) {
    return new AggregateDefinition<>(definition.name(), definition.aggregateType(), definition.keys(),
        definition.eventCodec(), definition.snapshotCodec(), definition.replay(), definition.indexColumns(), shards,
        definition.snapshotPolicy(), definition.layout(), definition.tipPolicy());
  }

  /** {@code definition} without index columns: as it was before {@code team} and {@code email} were declared. */
  static AggregateDefinition<Member, MemberId, MemberEvent> withoutColumns(
      AggregateDefinition<Member, MemberId, MemberEvent> definition) {
    return new AggregateDefinition<>(definition.name(), definition.aggregateType(), definition.keys(),
        definition.eventCodec(), definition.snapshotCodec(), definition.replay(), IndexColumns.none(),
        definition.shards(), definition.snapshotPolicy(), definition.layout(), definition.tipPolicy());
  }

  /** {@code definition} whose event codec fails to read, or to write, events of type {@code type}. */
  static AggregateDefinition<Member, MemberId, MemberEvent> failingEvents(
      AggregateDefinition<Member, MemberId, MemberEvent> definition, String type, boolean onWrite) {
    EventCodec<MemberEvent> real = definition.eventCodec();
    EventCodec<MemberEvent> failing = new EventCodec<>() {
      @Override
      public String typeName(MemberEvent event) {
        return real.typeName(event);
      }

      @Override
      public byte[] encode(MemberEvent event) throws IOException {
        if (onWrite && real.typeName(event).equals(type)) {
          throw new IOException("cannot write " + type);
        }
        return real.encode(event);
      }

      @Override
      public MemberEvent decode(String typeName, byte[] body) throws IOException {
        if (!onWrite && typeName.equals(type)) {
          throw new IOException("cannot read " + type);
        }
        return real.decode(typeName, body);
      }
    };
    return new AggregateDefinition<>(definition.name(), definition.aggregateType(), definition.keys(), failing,
        definition.snapshotCodec(), definition.replay(), definition.indexColumns(), definition.shards(),
        definition.snapshotPolicy(), definition.layout(), definition.tipPolicy());
  }

  /** {@code definition} whose snapshot codec writes snapshots it cannot read. */
  static AggregateDefinition<Member, MemberId, MemberEvent> unreadableSnapshots(
      AggregateDefinition<Member, MemberId, MemberEvent> definition) {
    SnapshotCodec<Member> real = definition.snapshotCodec();
    SnapshotCodec<Member> failing = new SnapshotCodec<>() {
      @Override
      public byte[] encode(Member state) throws IOException {
        return real.encode(state);
      }

      @Override
      public Member decode(byte[] body) throws IOException {
        throw new IOException("cannot read the snapshot");
      }
    };
    return new AggregateDefinition<>(definition.name(), definition.aggregateType(), definition.keys(),
        definition.eventCodec(), failing, definition.replay(), definition.indexColumns(), definition.shards(),
        definition.snapshotPolicy(), definition.layout(), definition.tipPolicy());
  }

  /**
   * {@code definition} whose snapshot codec has another fingerprint, as after a change of the aggregate, and
   * cannot read the snapshots it writes: a load that decodes one of them fails.
   */
  static AggregateDefinition<Member, MemberId, MemberEvent> changedAndUnreadableSnapshots(
      AggregateDefinition<Member, MemberId, MemberEvent> definition) {
    SnapshotCodec<Member> real = definition.snapshotCodec();
    SnapshotCodec<Member> changed = new SnapshotCodec<>() {
      @Override
      public byte[] encode(Member state) throws IOException {
        return real.encode(state);
      }

      @Override
      public Member decode(byte[] body) throws IOException {
        throw new IOException("cannot read the snapshot");
      }

      @Override
      public String fingerprint() {
        return "changed0000";
      }
    };
    return new AggregateDefinition<>(definition.name(), definition.aggregateType(), definition.keys(),
        definition.eventCodec(), changed, definition.replay(), definition.indexColumns(), definition.shards(),
        definition.snapshotPolicy(), definition.layout(), definition.tipPolicy());
  }
}
