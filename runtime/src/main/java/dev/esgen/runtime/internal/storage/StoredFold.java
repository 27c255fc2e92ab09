package dev.esgen.runtime.internal.storage;

import dev.esgen.runtime.aggregate.AggregateDefinition;
import dev.esgen.runtime.error.UnexpectedEventException;

/**
 * One step of a load's fold over stored events: the creating event without a state, the next event onto
 * it. An event the replay refuses (an upcaster may return one where it cannot stand) fails naming the
 * stream, the stored event's seq_nr and its stored type, which the replay itself does not know. The DynamoDB
 * layouts and the test kit's in-memory store fold by it.
 *
 * <pre>{@code
 * for (E event : JournalEvents.events(definition, aid, seqNr, item)) {
 *   state = StoredFold.step(definition, state, event, aid, seqNr, storedType);
 * }
 * }</pre>
 */
public final class StoredFold {

  private StoredFold() {}

  /**
   * {@code state} with {@code event} applied, or the state {@code event} creates when {@code state} is null.
   *
   * @throws UnexpectedEventException naming {@code aid}, {@code seqNr} and {@code storedType}
   */
  public static <A, E> A step(AggregateDefinition<A, ?, E> definition, A state, E event, String aid, long seqNr,
      String storedType) {
    try {
      return state == null ? definition.replay().create(event) : definition.replay().apply(state, event);
    } catch (UnexpectedEventException unexpected) {
      throw unexpected.inStream(aid, seqNr, storedType);
    }
  }
}
