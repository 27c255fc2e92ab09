package dev.esgen.runtime.internal.storage;

import dev.esgen.runtime.error.AggregateAlreadyExistsException;
import dev.esgen.runtime.error.AppendRejectedException;
import dev.esgen.runtime.error.CorruptStreamException;
import dev.esgen.runtime.error.DuplicateValueException;
import dev.esgen.runtime.error.FailureKind;
import dev.esgen.runtime.error.ItemTooLargeException;
import dev.esgen.runtime.error.TransactionTooLargeException;
import dev.esgen.runtime.error.VersionConflictException;
import dev.esgen.runtime.internal.command.CommandAlreadyAppliedException;
import dev.esgen.runtime.internal.index.IndexChanges.UniqueChange;
import dev.esgen.runtime.internal.index.UniqueReservations;
import dev.esgen.runtime.internal.retry.Failures;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.CancellationReason;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;

/**
 * The actions of one append's {@code TransactWriteItems}, each with a label and a role, and the
 * translation of a cancellation into the esgen error that says why. Both layouts build their
 * transactional appends with it.
 *
 * <p>DynamoDB reports one reason per action, in request order: {@code None} for actions that were fine,
 * {@code ConditionalCheckFailed} for a failed condition (with the item's old image when asked for), and
 * others. Cancellations for transient reasons never get here: the retrying client sends those again.
 * A failed condition means, by the role of its action:
 * <ul>
 *   <li>the command record: the command was already applied by a concurrent try;
 *   <li>the versioned item (journal head row, tip): another writer got there first;
 *   <li>a reservation: the unique value is taken ({@link dev.esgen.runtime.error.DuplicateValueException});
 *   <li>a release: the reservations disagree with the streams;
 *   <li>a stream item (event, batch) while the versioned item matched: an item esgen did not write
 *       blocks the stream, which no retry can fix ({@link CorruptStreamException}).
 * </ul>
 *
 * <pre>{@code
 * AppendTransaction transaction = new AppendTransaction("bank-account", aid);
 * transaction.addStreamItem("event 8", eventPut, eventSize);
 * transaction.addVersioned("head", headUpdate, 0);
 * transaction.checkLimits();
 * }</pre>
 */
public final class AppendTransaction {

  private static final String CONDITION_FAILED = "ConditionalCheckFailed";

  private final String aggregateName;
  private final String aid;
  private final List<TransactWriteItem> items = new ArrayList<>();
  private final List<String> labels = new ArrayList<>();
  private final Set<Integer> streamItems = new HashSet<>();
  private final Map<Integer, UniqueChange> reservations = new HashMap<>();
  private final Set<Integer> releases = new HashSet<>();
  private int versionedIndex = -1;
  private int commandIndex = -1;
  private String commandId;
  private long sizeBytes;

  public AppendTransaction(String aggregateName, String aid) {
    this.aggregateName = aggregateName;
    this.aid = aid;
  }

  /** Adds an item of the stream that must not exist yet: an event, a batch of events. */
  public void addStreamItem(String label, TransactWriteItem item, long sizeBytes) {
    streamItems.add(items.size());
    add(label, item, sizeBytes);
  }

  /** Adds the write conditioned on the stream's version (or its absence): the head row, the tip. */
  public void addVersioned(String label, TransactWriteItem item, long sizeBytes) {
    versionedIndex = items.size();
    add(label, item, sizeBytes);
  }

  /** Adds the command record of {@code commandId}. */
  public void addCommand(String commandId, TransactWriteItem item, long sizeBytes) {
    commandIndex = items.size();
    this.commandId = commandId;
    add("command record", item, sizeBytes);
  }

  public void addReservation(UniqueChange change, TransactWriteItem item, long sizeBytes) {
    reservations.put(items.size(), change);
    add("reservation of " + change.column().name(), item, sizeBytes);
  }

  public void addRelease(UniqueChange change, TransactWriteItem item) {
    releases.add(items.size());
    add("release of " + change.column().name(), item, 0);
  }

  /**
   * Adds any other action; {@code sizeBytes} is the item's size for a Put, 0 for updates and deletes,
   * whose result the caller checked or which stay small.
   *
   * @throws ItemTooLargeException when the item is over DynamoDB's limit
   */
  public void add(String label, TransactWriteItem item, long sizeBytes) {
    if (sizeBytes > ItemTooLargeException.LIMIT_BYTES) {
      throw new ItemTooLargeException(aggregateName, aid, label, sizeBytes);
    }
    items.add(item);
    labels.add(label);
    this.sizeBytes += sizeBytes;
  }

  /** @throws TransactionTooLargeException when the actions exceed DynamoDB's count or byte limit */
  public void checkLimits() {
    if (items.size() > TransactionTooLargeException.ACTION_LIMIT || sizeBytes > TransactionTooLargeException.BYTE_LIMIT) {
      throw new TransactionTooLargeException(aggregateName, aid, items.size(), sizeBytes);
    }
  }

  public List<TransactWriteItem> items() {
    return items;
  }

  /** Whether the append takes or gives up a unique value. */
  public boolean changesReservations() {
    return !reservations.isEmpty() || !releases.isEmpty();
  }

  /**
   * The error for {@code cancelled}.
   *
   * @param expectedVersion the version the versioned item was conditioned on
   * @param creating whether the append creates the stream
   * @param versionAttribute the attribute holding the version on the versioned item
   */
  public RuntimeException toException(
      TransactionCanceledException cancelled, long expectedVersion, boolean creating, String versionAttribute) {
    List<CancellationReason> reasons = Failures.reasons(cancelled);
    if (failed(reasons, commandIndex)) {
      return new CommandAlreadyAppliedException(aggregateName, aid, commandId);
    }
    if (failed(reasons, versionedIndex)) {
      OptionalLong actual = versionOf(reasons.get(versionedIndex), versionAttribute);
      return creating
          ? new AggregateAlreadyExistsException(aggregateName, aid, actual)
          : new VersionConflictException(aggregateName, aid, expectedVersion, actual, 1, cancelled);
    }
    // The stream was where the append expected it, so a failed reservation means the value is taken.
    for (Map.Entry<Integer, UniqueChange> reservation : reservations.entrySet()) {
      if (failed(reasons, reservation.getKey())) {
        return UniqueReservations.duplicate(aggregateName, reservation.getValue(), reasons.get(reservation.getKey()));
      }
    }
    // Another aggregate holds a value this one should be giving up: the reservations disagree with the
    // streams (edited by hand, or a normalisation changed); retrying cannot help.
    for (int index : releases) {
      if (failed(reasons, index)) {
        return new AppendRejectedException(aggregateName, aid,
            List.of(labels.get(index) + ": the value is reserved by another aggregate, see docs/index-columns.md"),
            cancelled);
      }
    }
    // Every esgen append writes its stream items together with the versioned item, so one that exists
    // while the version still matched was written by something else; reloading would find it again.
    for (int index : streamItems) {
      if (failed(reasons, index)) {
        return new CorruptStreamException(aggregateName, aid, "the " + labels.get(index)
            + " already exists although the stream is at version " + expectedVersion
            + " without it; it was not written by esgen (another writer or a migration?)");
      }
    }
    List<String> described = new ArrayList<>();
    for (int i = 0; i < reasons.size(); i++) {
      CancellationReason reason = reasons.get(i);
      if (reason.code() != null && !"None".equals(reason.code())) {
        String label = i < labels.size() ? labels.get(i) : "action " + i;
        // DynamoDB's reason messages name limits and attribute names, never attribute values.
        described.add(label + ": " + reason.code() + (reason.message() == null ? "" : " (" + reason.message() + ")"));
      }
    }
    if (described.isEmpty()) {
      described.add(Failures.describe(cancelled));
    }
    return new AppendRejectedException(aggregateName, aid, described, cancelled);
  }

  /**
   * What is true of this transaction when it was sent in doubt (an attempt's outcome was unknown) and gave
   * up with {@code last}, given what reading back found: null when it is stored, else the error that says
   * why it is not ({@link #lostTo}, {@link #notStored}). Both layouts settle their transactions here.
   *
   * @param versionAttribute the layout's name of the attribute its version condition is on
   */
  public RuntimeException verdict(StoredOutcome outcome, AppendRequest<?, ?, ?> request, RuntimeException last,
      String versionAttribute) {
    return switch (outcome) {
      case THIS_APPEND -> null;
      case ANOTHER_APPEND -> lostTo(request, last);
      case NOTHING -> notStored(request, last, versionAttribute);
    };
  }

  /**
   * The error for this transaction when it was sent in doubt (an attempt's outcome was unknown) and
   * reading back found another append in its place: if {@code last} was cancelled on the command record,
   * a concurrent try of the same command stored it, and the caller answers with the stored stream;
   * otherwise the append lost its version ({@link StoredOutcome#lostTo}).
   */
  private RuntimeException lostTo(AppendRequest<?, ?, ?> request, RuntimeException last) {
    if (last instanceof TransactionCanceledException cancelled && failed(Failures.reasons(cancelled), commandIndex)) {
      return new CommandAlreadyAppliedException(aggregateName, aid, commandId);
    }
    return StoredOutcome.lostTo(request, last);
  }

  /**
   * The error for this transaction when it was sent in doubt (an attempt's outcome was unknown), gave up
   * with {@code last}, and reading back found it not stored (yet). Only a refusal that the attempt of
   * unknown outcome would meet too, whenever it reaches DynamoDB, settles it: a failed condition on the
   * stream's version or the command record (both only ever move on), a release the reservations contradict,
   * an item esgen did not write, a validation error. Anything else leaves that attempt free to commit after
   * the read-back, so the append's outcome stays unknown:
   * <ul>
   *   <li>a cancellation for transient reasons ({@code TransactionConflict}): DynamoDB Local reports the
   *       attempt still in progress that way, and after one the retrying client sends fresh tokens, whose
   *       answers say nothing about the earlier attempt;
   *   <li>a unique value found taken: its holder may give it up before the earlier attempt lands;
   *   <li>a resend refused while the earlier attempt was in progress ({@code TransactionInProgress}),
   *       throttled before DynamoDB looked at it, or itself of unknown outcome.
   * </ul>
   */
  private RuntimeException notStored(AppendRequest<?, ?, ?> request, RuntimeException last, String versionAttribute) {
    if (last instanceof TransactionCanceledException cancelled && Failures.classify(last) != FailureKind.TRANSIENT) {
      RuntimeException refused = toException(cancelled, request.expectedVersion(), request.creating(), versionAttribute);
      if (!(refused instanceof DuplicateValueException)) {
        return refused;
      }
    }
    return StoredOutcome.unknown(request, last);
  }

  private static boolean failed(List<CancellationReason> reasons, int index) {
    return index >= 0 && index < reasons.size() && CONDITION_FAILED.equals(reasons.get(index).code());
  }

  private static OptionalLong versionOf(CancellationReason reason, String versionAttribute) {
    if (!reason.hasItem()) {
      return OptionalLong.empty();
    }
    AttributeValue version = reason.item().get(versionAttribute);
    return version == null || version.n() == null ? OptionalLong.empty() : OptionalLong.of(Long.parseLong(version.n()));
  }
}
