package dev.esgen.runtime.error;

import java.util.OptionalLong;

/**
 * A {@code create} found a stream already stored under the new aggregate's id.
 *
 * <p>It is a {@link VersionConflictException} with expected version 0 because that is what it
 * is at the store: the write was conditioned on the stream not existing. Catch this subclass where a
 * duplicate create means something different from a lost race (for example an idempotent command).
 *
 * <pre>{@code
 * try {
 *   accounts.create(new AccountOpened(id, "Ann", "ann@example.com", now));
 * } catch (AggregateAlreadyExistsException e) {
 *   return accounts.load(id);       // opened already: answer with what is stored
 * }
 * }</pre>
 */
public class AggregateAlreadyExistsException extends VersionConflictException {

  private static final long serialVersionUID = 1L;

  /** @param actualVersion the stored stream's version, when the store reported it */
  public AggregateAlreadyExistsException(String aggregateName, String aggregateId, OptionalLong actualVersion) {
    super(aggregateName, aggregateId, 0, actualVersion, 1);
  }

  @Override
  public String getMessage() {
    String actual = actualVersion().isPresent() ? " (at version " + actualVersion().getAsLong() + ")" : "";
    return aggregateName() + " " + aggregateId() + " already exists" + actual;
  }
}
