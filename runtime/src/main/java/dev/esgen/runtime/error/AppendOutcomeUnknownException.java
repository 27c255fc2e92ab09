package dev.esgen.runtime.error;

import java.util.Optional;

/**
 * esgen cannot tell whether an append was stored: a request may have been applied (its response was
 * lost, it timed out, DynamoDB answered with a server error) and reading the stream back did not settle
 * it within the {@link dev.esgen.runtime.config.RetryPolicy}'s attempts and deadline. Later attempts that
 * were refused in a way the earlier one need not be (a transaction conflict, a unique value found taken)
 * settle nothing either: the earlier attempt may still commit. The append is stored wholly or not at all;
 * which one, only a later read can say.
 *
 * <p>To finish the command safely, repeat it with the same command id
 * ({@code transact(id, commandId, decide)}): if the first try was stored, the repeat returns the stored
 * result and appends nothing. Without a command id, load the stream and look for the events before
 * deciding again.
 *
 * <pre>{@code
 * try {
 *   accounts.transact(id, "deposit-" + requestId, account -> account.deposit(500));
 * } catch (AppendOutcomeUnknownException e) {
 *   // "outcome of append 3vQ... to bank-account 5f0c... at version 7 (command deposit-42) unknown: ..."
 *   retryLater(e.commandId().orElseThrow());
 * }
 * }</pre>
 */
public class AppendOutcomeUnknownException extends StoreException {

  private static final long serialVersionUID = 1L;

  private final String aggregateName;
  private final String aggregateId;
  private final long expectedVersion;
  private final String appendId;
  private final String commandId;

  /**
   * @param expectedVersion the version the append was conditioned on (0 for a create)
   * @param appendId the append id stored with the append's events, if it was stored
   * @param commandId the caller's command id, if the append had one
   * @param why what failed last, without stored values
   */
  public AppendOutcomeUnknownException(String aggregateName, String aggregateId, long expectedVersion,
      String appendId, Optional<String> commandId, String why, Throwable cause) {
    super("outcome of append " + appendId + " to " + aggregateName + " " + aggregateId + " at version "
        + expectedVersion + commandId.map(c -> " (command " + c + ")").orElse("") + " unknown: " + why
        + "; repeat the command with its command id to finish it safely", cause);
    this.aggregateName = aggregateName;
    this.aggregateId = aggregateId;
    this.expectedVersion = expectedVersion;
    this.appendId = appendId;
    this.commandId = commandId.orElse(null);
  }

  /** The stored name of the aggregate type, such as {@code bank-account}. */
  public String aggregateName() {
    return aggregateName;
  }

  /** The stream's id string. */
  public String aggregateId() {
    return aggregateId;
  }

  /** The version the append expected the stream at; 0 for a create. */
  public long expectedVersion() {
    return expectedVersion;
  }

  /** The id the append stores with its first event, to recognise it when reading the stream. */
  public String appendId() {
    return appendId;
  }

  /** The caller's command id, when the append carried one. */
  public Optional<String> commandId() {
    return Optional.ofNullable(commandId);
  }
}
