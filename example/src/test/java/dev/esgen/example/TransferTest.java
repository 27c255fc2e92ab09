package dev.esgen.example;

import dev.esgen.example.account.AccountId;
import dev.esgen.example.transfer.Transfer;
import dev.esgen.example.transfer.TransferEvent;
import dev.esgen.example.transfer.TransferId;
import dev.esgen.example.transfer.TransferRepository;
import dev.esgen.runtime.codec.EsgenJson;
import dev.esgen.testkit.fixture.AggregateFixture;
import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** A transfer's steps, no store: each is allowed only after the one before it. */
class TransferTest {

  private static final AggregateFixture<Transfer, TransferId, TransferEvent> TRANSFERS =
      AggregateFixture.of(TransferRepository.definition(EsgenJson.newObjectMapper()));

  private final TransferId id = new TransferId("tr-1");
  private final TransferEvent.Requested requested = new TransferEvent.Requested(id,
      new AccountId(UUID.fromString("00000000-0000-0000-0000-00000000000a")),
      new AccountId(UUID.fromString("00000000-0000-0000-0000-00000000000b")), 40_00,
      Instant.parse("2026-01-02T03:04:05Z"));

  @Test
  void aRequestedTransferIsDebitedThenCompleted() {
    TRANSFERS.given(requested)
        .when(Transfer::markDebited)
        .thenEvents(new TransferEvent.Debited())
        .thenState("debited", transfer -> transfer.status() == Transfer.Status.DEBITED);
    TRANSFERS.given(requested, new TransferEvent.Debited())
        .when(Transfer::complete)
        .thenEvents(new TransferEvent.Completed());
  }

  @Test
  void onlyARequestedTransferCanFail() {
    TRANSFERS.given(requested)
        .when(transfer -> transfer.fail("no money"))
        .thenEvents(new TransferEvent.Failed("no money"));
    TRANSFERS.given(requested, new TransferEvent.Debited())
        .when(transfer -> transfer.fail("too late"))
        .thenThrows(IllegalStateException.class);
  }

  @Test
  void onlyADebitedTransferIsRefundedAndThenItHasFailed() {
    TRANSFERS.given(requested, new TransferEvent.Debited())
        .when(transfer -> transfer.refund("account closed"))
        .thenEvents(new TransferEvent.Refunded("account closed"))
        .thenState("failed", transfer -> transfer.status() == Transfer.Status.FAILED);
    TRANSFERS.given(requested)
        .when(transfer -> transfer.refund("nothing was debited"))
        .thenThrows(IllegalStateException.class);
  }

  @Test
  void aTransferIsNotCompletedTwice() {
    TRANSFERS.given(requested, new TransferEvent.Debited(), new TransferEvent.Completed())
        .when(Transfer::complete)
        .thenThrows(IllegalStateException.class);
  }
}
