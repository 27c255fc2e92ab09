package dev.esgen.runtime.error;

import java.util.OptionalLong;

/**
 * Another writer changed the stream between this writer's read and its write: the stream's version was
 * not the one the write expected. Nothing of the failed write was stored.
 *
 * <p>{@code transact} retries on this exception and throws it only after its last attempt, with
 * {@link #attempts()} telling how many writes were tried. {@code append} with an explicit expected
 * version throws it at once: the caller decided on a state that is no longer current.
 *
 * <pre>{@code
 * try {
 *   accounts.append(id, 7, new MoneyDeposited(500));
 * } catch (VersionConflictException e) {
 *   // e.expectedVersion() == 7, e.actualVersion() == OptionalLong.of(8)
 *   return conflict("account changed, now at version " + e.actualVersion().orElse(-1));
 * }
 * }</pre>
 */
public class VersionConflictException extends EsgenException {

  private static final long serialVersionUID = 1L;

  private final String aggregateName;
  private final String aggregateId;
  private final long expectedVersion;
  private final Long actualVersion;
  private final int attempts;

  /**
   * @param actualVersion the version found in the store, empty when the store did not report it
   * @param attempts how many writes were tried before giving up (1 when not retried)
   */
  public VersionConflictException(
      String aggregateName, String aggregateId, long expectedVersion, OptionalLong actualVersion, int attempts) {
    this(aggregateName, aggregateId, expectedVersion, actualVersion, attempts, null);
  }

  /** As above, with the conflict that caused this one (e.g. the last attempt's). */
  public VersionConflictException(
      String aggregateName,
      String aggregateId,
      long expectedVersion,
      OptionalLong actualVersion,
      int attempts,
      Throwable cause) {
    super(message(aggregateName, aggregateId, expectedVersion, actualVersion, attempts), cause);
    this.aggregateName = aggregateName;
    this.aggregateId = aggregateId;
    this.expectedVersion = expectedVersion;
    this.actualVersion = actualVersion.isPresent() ? actualVersion.getAsLong() : null;
    this.attempts = attempts;
  }

  private static String message(
      String aggregateName, String aggregateId, long expectedVersion, OptionalLong actualVersion, int attempts) {
    String actual = actualVersion.isPresent() ? String.valueOf(actualVersion.getAsLong()) : "unknown";
    String tried = attempts > 1 ? " after " + attempts + " attempts" : "";
    return "version conflict on " + aggregateName + " " + aggregateId + tried + ": expected version "
        + expectedVersion + ", actual version " + actual;
  }

  /** The stored name of the aggregate type, such as {@code bank-account}. */
  public String aggregateName() {
    return aggregateName;
  }

  /** The stream's id string. */
  public String aggregateId() {
    return aggregateId;
  }

  /** The version the write was conditioned on; 0 for a write that creates the stream. */
  public long expectedVersion() {
    return expectedVersion;
  }

  /** The version the store holds, when the store reported it. */
  public OptionalLong actualVersion() {
    return actualVersion == null ? OptionalLong.empty() : OptionalLong.of(actualVersion);
  }

  /** How many writes were tried; more than 1 only for {@code transact}. */
  public int attempts() {
    return attempts;
  }
}
