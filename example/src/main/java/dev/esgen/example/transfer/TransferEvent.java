package dev.esgen.example.transfer;

import dev.esgen.annotations.DomainEvents;
import dev.esgen.annotations.EventType;
import dev.esgen.example.account.AccountId;
import java.time.Instant;

/** The life of a transfer between two accounts. */
@DomainEvents
public sealed interface TransferEvent {

  @EventType("transfer-requested")
  record Requested(TransferId id, AccountId from, AccountId to, long cents, Instant at) implements TransferEvent {}

  @EventType("transfer-debited")
  record Debited() implements TransferEvent {}

  @EventType("transfer-completed")
  record Completed() implements TransferEvent {}

  @EventType("transfer-failed")
  record Failed(String reason) implements TransferEvent {}

  /** The target refused the credit, and the source got its money back. */
  @EventType("transfer-refunded")
  record Refunded(String reason) implements TransferEvent {}
}
