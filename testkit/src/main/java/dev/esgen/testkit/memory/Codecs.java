package dev.esgen.testkit.memory;

import dev.esgen.runtime.aggregate.AggregateDefinition;
import dev.esgen.runtime.error.EventDecodingException;
import dev.esgen.runtime.error.EventEncodingException;
import dev.esgen.runtime.error.SnapshotDecodingException;
import dev.esgen.runtime.error.SnapshotEncodingException;
import dev.esgen.runtime.history.RecordedEvent;
import java.io.IOException;

/**
 * Runs an aggregate's generated codecs on what the in-memory store keeps, and reports their failures
 * with the exceptions DynamoDB's layouts report them with.
 */
final class Codecs {

  private Codecs() {}

  /** {@code event} in stored form. */
  static <E> byte[] encodeEvent(AggregateDefinition<?, ?, E> definition, String aid, String type, E event) {
    try {
      return definition.eventCodec().encode(event);
    } catch (IOException | RuntimeException e) {
      throw new EventEncodingException(definition.name(), aid, type, e);
    }
  }

  /** {@code state} as a snapshot taken at {@code seqNr}. */
  static <A> byte[] encodeSnapshot(AggregateDefinition<A, ?, ?> definition, String aid, long seqNr, A state) {
    try {
      return definition.snapshotCodec().encode(state);
    } catch (IOException | RuntimeException e) {
      throw new SnapshotEncodingException(definition.name(), aid, seqNr, e);
    }
  }

  /** The event stored as {@code stored} at {@code seqNr}. */
  static <E> E decodeEvent(AggregateDefinition<?, ?, E> definition, String aid, long seqNr, StoredEvent stored) {
    try {
      return definition.eventCodec().decode(stored.type(), stored.body());
    } catch (IOException | RuntimeException e) {
      throw new EventDecodingException(definition.name(), aid, seqNr, stored.type(), e);
    }
  }

  /** The event stored as {@code stored} at {@code seqNr}, with what was recorded beside it. */
  static <E> RecordedEvent<E> recorded(AggregateDefinition<?, ?, E> definition, String aid, long seqNr,
      StoredEvent stored) {
    return new RecordedEvent<>(definition.name(), aid, seqNr, stored.type(), stored.recordedAt(), stored.metadata(),
        decodeEvent(definition, aid, seqNr, stored));
  }

  /** The state in the snapshot {@code body} taken at {@code seqNr}. */
  static <A> A decodeSnapshot(AggregateDefinition<A, ?, ?> definition, String aid, long seqNr, byte[] body) {
    try {
      return definition.snapshotCodec().decode(body);
    } catch (IOException | RuntimeException e) {
      throw new SnapshotDecodingException(definition.name(), aid, seqNr, e);
    }
  }
}
