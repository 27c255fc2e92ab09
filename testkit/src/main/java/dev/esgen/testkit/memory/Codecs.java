package dev.esgen.testkit.memory;

import dev.esgen.runtime.aggregate.AggregateDefinition;
import dev.esgen.runtime.error.EventEncodingException;
import dev.esgen.runtime.error.SnapshotDecodingException;
import dev.esgen.runtime.error.SnapshotEncodingException;
import dev.esgen.runtime.history.RecordedEvent;
import dev.esgen.runtime.internal.storage.StoredEventDecoder;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs an aggregate's generated codecs on what the in-memory store keeps, and reports their failures
 * with the exceptions DynamoDB's layouts report them with. Stored events are read as the layouts read
 * them, through {@link StoredEventDecoder}: from their stored type name and version, upcasters included.
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

  /** The events the event stored as {@code stored} at {@code seqNr} stands for now: one, several or none. */
  static <E> List<E> decodeEvent(AggregateDefinition<?, ?, E> definition, String aid, long seqNr, KeptEvent stored) {
    return StoredEventDecoder.decode(definition, aid, seqNr, stored.type(), stored.version(), stored.body());
  }

  /**
   * The events the event stored as {@code stored} at {@code seqNr} stands for now, each with what was
   * recorded beside it and under its current type name.
   */
  static <E> List<RecordedEvent<E>> recorded(AggregateDefinition<?, ?, E> definition, String aid, long seqNr,
      KeptEvent stored) {
    List<RecordedEvent<E>> recorded = new ArrayList<>();
    for (E event : decodeEvent(definition, aid, seqNr, stored)) {
      recorded.add(new RecordedEvent<>(definition.name(), aid, seqNr, definition.eventCodec().typeName(event),
          stored.recordedAt(), stored.metadata(), event));
    }
    return recorded;
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
