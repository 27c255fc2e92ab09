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
    FAILED
  }

  static Transfer request(TransferEvent.Requested e) {
    return new Transfer(e.id(), e.from(), e.to(), e.cents(), Status.REQUESTED);
  }

  Transfer apply(TransferEvent event) {
    if (event instanceof TransferEvent.Debited) {
      return withStatus(Status.DEBITED);
    }
    if (event instanceof TransferEvent.Completed) {
      return withStatus(Status.COMPLETED);
    }
    if (event instanceof TransferEvent.Failed) {
      return withStatus(Status.FAILED);
    }
    throw new IllegalStateException("transfer " + id.value() + " cannot apply " + event);
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

  private Transfer withStatus(Status next) {
    return new Transfer(id, from, to, cents, next);
  }

  private void requireStatus(Status expected) {
    if (status != expected) {
      throw new IllegalStateException("transfer " + id.value() + " is " + status + ", not " + expected);
    }
  }
}
