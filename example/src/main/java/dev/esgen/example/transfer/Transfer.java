package dev.esgen.example.transfer;

import dev.esgen.annotations.Aggregate;
import dev.esgen.annotations.AggregateId;
import dev.esgen.example.account.AccountId;
import java.util.List;

/**
 * A transfer of money from one account to another: a small process whose every step is an event, so a
 * crash between debiting the source and crediting the target can be seen and finished later.
 */
@Aggregate(name = "transfer", events = TransferEvent.class)
public record Transfer(@AggregateId TransferId id, AccountId from, AccountId to, long cents, Status status) {

  /** Where a transfer stands. */
  public enum Status {
    REQUESTED,
    DEBITED,
    COMPLETED,
    /** Nothing moved in the end: the debit was refused, or the credit was and the debit refunded. */
    FAILED
  }

  static Transfer request(TransferEvent.Requested e) {
    return new Transfer(e.id(), e.from(), e.to(), e.cents(), Status.REQUESTED);
  }

  // One handler per event, so that a new TransferEvent without one fails the build ([esgen:no-handler])
  // instead of a replay of stored events at run time.
  Transfer apply(TransferEvent.Debited e) {
    return withStatus(Status.DEBITED);
  }

  Transfer apply(TransferEvent.Completed e) {
    return withStatus(Status.COMPLETED);
  }

  Transfer apply(TransferEvent.Failed e) {
    return withStatus(Status.FAILED);
  }

  Transfer apply(TransferEvent.Refunded e) {
    return withStatus(Status.FAILED);
  }

  public List<TransferEvent> markDebited() {
    requireStatus(Status.REQUESTED);
    return List.of(new TransferEvent.Debited());
  }

  public List<TransferEvent> complete() {
    requireStatus(Status.DEBITED);
    return List.of(new TransferEvent.Completed());
  }

  public List<TransferEvent> fail(String reason) {
    requireStatus(Status.REQUESTED);
    return List.of(new TransferEvent.Failed(reason));
  }

  /** Ends a debited transfer whose credit was refused, once the source has its money back. */
  public List<TransferEvent> refund(String reason) {
    requireStatus(Status.DEBITED);
    return List.of(new TransferEvent.Refunded(reason));
  }

  private Transfer withStatus(Status next) {
    return new Transfer(id, from, to, cents, next);
  }

  private void requireStatus(Status expected) {
    if (status != expected) {
      throw new IllegalStateException("transfer " + id.value() + " is " + status + ", not " + expected);
    }
  }
}
