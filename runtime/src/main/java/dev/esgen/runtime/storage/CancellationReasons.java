package dev.esgen.runtime.storage;

import dev.esgen.runtime.error.AggregateAlreadyExistsException;
import dev.esgen.runtime.error.AppendRejectedException;
import dev.esgen.runtime.error.ConcurrentModificationException;
import dev.esgen.runtime.error.EsgenException;
import dev.esgen.runtime.index.IndexChanges.UniqueChange;
import dev.esgen.runtime.index.UniqueReservations;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.CancellationReason;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;

/**
 * Turns a cancelled append transaction into the esgen error that says why.
 *
 * <p>DynamoDB reports one reason per action, in request order: {@code None} for actions that were fine,
 * {@code ConditionalCheckFailed} for a failed condition (with the item's old image when asked for),
 * {@code TransactionConflict} when another transaction was writing the same item at the same moment,
 * and others such as {@code ThrottlingError} or {@code ValidationError}. A failed condition on a
 * uniqueness reservation becomes a {@link dev.esgen.runtime.error.DuplicateValueException}.
 *
 * <p>Shared by the storage layouts: each names the action that writes the stream's version-carrying item
 * (the journal's head row, the tip) and the attribute holding the version there.
 *
 * <pre>{@code
 * throw new CancellationReasons("bank-account", aid, 3, false, labels, headIndex, "version",
 *     reservationsByIndex, releaseIndexes).toException(cancelled);
 * }</pre>
 */
public final class CancellationReasons {

  private static final String CONDITION_FAILED = "ConditionalCheckFailed";
  private static final String TRANSACTION_CONFLICT = "TransactionConflict";

  private final String aggregateName;
  private final String aid;
  private final long expectedVersion;
  private final boolean creating;
  private final List<String> labels;
  private final int headIndex;
  private final String versionAttribute;
  private final Map<Integer, UniqueChange> reservations;
  private final Set<Integer> releases;

  /**
   * @param labels a description of each action, for errors that are no esgen exception of their own
   * @param headIndex the index of the action conditioned on the stream's version (or its absence)
   * @param versionAttribute the attribute holding the version on that action's item
   * @param reservations the unique values the append reserves, by their action's index
   * @param releases the indexes of the actions that release unique values
   */
  public CancellationReasons(String aggregateName, String aid, long expectedVersion, boolean creating,
      List<String> labels, int headIndex, String versionAttribute, Map<Integer, UniqueChange> reservations,
      Set<Integer> releases) {
    this.aggregateName = aggregateName;
    this.aid = aid;
    this.expectedVersion = expectedVersion;
    this.creating = creating;
    this.labels = labels;
    this.headIndex = headIndex;
    this.versionAttribute = versionAttribute;
    this.reservations = reservations;
    this.releases = releases;
  }

  /**
   * Whether DynamoDB cancelled only because another transaction was writing one of the same items at
   * that moment (no condition failed): sending the same actions again decides the race.
   */
  public static boolean onlyConflicts(TransactionCanceledException cancelled) {
    List<CancellationReason> reasons = cancelled.hasCancellationReasons() ? cancelled.cancellationReasons() : List.of();
    return reasons.stream().anyMatch(r -> TRANSACTION_CONFLICT.equals(r.code()))
        && reasons.stream().noneMatch(r -> CONDITION_FAILED.equals(r.code()));
  }

  public EsgenException toException(TransactionCanceledException cancelled) {
    List<CancellationReason> reasons = cancelled.hasCancellationReasons() ? cancelled.cancellationReasons() : List.of();
    if (headIndex < reasons.size() && CONDITION_FAILED.equals(reasons.get(headIndex).code())) {
      OptionalLong actual = versionOf(reasons.get(headIndex), versionAttribute);
      return creating
          ? new AggregateAlreadyExistsException(aggregateName, aid, actual)
          : new ConcurrentModificationException(aggregateName, aid, expectedVersion, actual, 1, cancelled);
    }
    // The stream was where the append expected it, so a failed reservation means the value is taken.
    for (Map.Entry<Integer, UniqueChange> reservation : reservations.entrySet()) {
      int index = reservation.getKey();
      if (index < reasons.size() && CONDITION_FAILED.equals(reasons.get(index).code())) {
        return UniqueReservations.duplicate(aggregateName, reservation.getValue(), reasons.get(index));
      }
    }
    // Another aggregate holds a value this one should be giving up: the reservations disagree with the
    // streams (edited by hand, or a normalisation changed); retrying cannot help.
    for (int index : releases) {
      if (index < reasons.size() && CONDITION_FAILED.equals(reasons.get(index).code())) {
        return new AppendRejectedException(aggregateName, aid,
            List.of(labels.get(index) + ": the value is reserved by another aggregate, see docs/index-columns.md"),
            cancelled);
      }
    }
    // An event or batch item that already exists while the versioned item still matched, or a transaction racing on
    // the same items: either way another writer is at work on this stream, and a reload sorts it out.
    for (CancellationReason reason : reasons) {
      if (CONDITION_FAILED.equals(reason.code()) || TRANSACTION_CONFLICT.equals(reason.code())) {
        return creating
            ? new AggregateAlreadyExistsException(aggregateName, aid, OptionalLong.empty())
            : new ConcurrentModificationException(aggregateName, aid, expectedVersion, OptionalLong.empty(), 1,
                cancelled);
      }
    }
    List<String> described = new ArrayList<>();
    for (int i = 0; i < reasons.size(); i++) {
      CancellationReason reason = reasons.get(i);
      if (reason.code() != null && !"None".equals(reason.code())) {
        String label = i < labels.size() ? labels.get(i) : "action " + i;
        described.add(label + ": " + reason.code() + (reason.message() == null ? "" : " (" + reason.message() + ")"));
      }
    }
    if (described.isEmpty()) {
      described.add(String.valueOf(cancelled.getMessage()));
    }
    return new AppendRejectedException(aggregateName, aid, described, cancelled);
  }

  private static OptionalLong versionOf(CancellationReason reason, String versionAttribute) {
    if (!reason.hasItem()) {
      return OptionalLong.empty();
    }
    Map<String, AttributeValue> item = reason.item();
    AttributeValue version = item.get(versionAttribute);
    return version == null || version.n() == null ? OptionalLong.empty() : OptionalLong.of(Long.parseLong(version.n()));
  }
}
