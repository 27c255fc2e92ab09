package dev.esgen.example;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.esgen.example.account.AccountEvent;
import dev.esgen.example.account.AccountId;
import dev.esgen.example.account.BankAccount;
import dev.esgen.example.account.BankAccountRepository;
import dev.esgen.example.account.MoneyDeposited;
import dev.esgen.example.transfer.Transfer;
import dev.esgen.example.transfer.TransferEvent;
import dev.esgen.example.transfer.TransferId;
import dev.esgen.example.transfer.TransferRepository;
import dev.esgen.example.transfer.TransferService;
import dev.esgen.runtime.EventStore;
import dev.esgen.runtime.error.AggregateNotFoundException;
import dev.esgen.runtime.history.RecordedEvent;
import dev.esgen.runtime.query.PageRequest;
import dev.esgen.testkit.junit.EsgenTest;
import dev.esgen.testkit.time.MutableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The transfer service on the generated repositories, in memory: no DynamoDB to start, yet the same
 * versions, conflicts and stored events. {@code mvn test -Desgen.test.backend=dynamodb-local} runs the same
 * tests on DynamoDB Local.
 */
@EsgenTest
class TransferServiceTest {

  private final MutableClock clock;
  private final BankAccountRepository accounts;
  private final TransferRepository transfers;
  private final TransferService service;

  TransferServiceTest(EventStore store, MutableClock clock) {
    this.clock = clock;
    this.accounts = new BankAccountRepository(store);
    this.transfers = new TransferRepository(store);
    this.service = new TransferService(accounts, transfers, clock);
  }

  private AccountId open(String owner, long cents) {
    AccountId id = AccountId.random();
    accounts.create(BankAccount.opening(id, owner, owner.toLowerCase() + "-" + id.value() + "@example.com",
        clock.instant()));
    if (cents > 0) {
      accounts.transact(id, account -> account.deposit(cents, "initial"));
    }
    return id;
  }

  @Test
  void aTransferMovesTheMoneyAndCompletes() {
    AccountId ann = open("Ann", 100_00);
    AccountId bob = open("Bob", 0);

    Transfer done = service.transfer(ann, bob, 40_00);

    assertEquals(Transfer.Status.COMPLETED, transfers.load(done.id()).status());
    assertEquals(60_00, accounts.load(ann).balanceCents());
    assertEquals(40_00, accounts.load(bob).balanceCents());
  }

  @Test
  void aRefusedDebitFailsTheTransferAndMovesNothing() {
    AccountId ann = open("Ann", 10_00);
    AccountId bob = open("Bob", 0);

    Transfer failed = service.transfer(ann, bob, 11_00);

    assertEquals(Transfer.Status.FAILED, failed.status());
    assertEquals(10_00, accounts.load(ann).balanceCents());
    assertEquals(0, accounts.load(bob).balanceCents());
  }

  @Test
  void aCreditTheTargetRefusesIsRefundedAndTheTransferFails() {
    AccountId ann = open("Ann", 100_00);
    AccountId bob = open("Bob", 0);
    accounts.transact(bob, account -> account.close("moved away"));

    Transfer failed = service.transfer(ann, bob, 40_00);

    assertEquals(Transfer.Status.FAILED, failed.status());
    assertEquals(100_00, accounts.load(ann).balanceCents(), "the debit was refunded");
    assertEquals(List.of("transfer-requested", "transfer-debited", "transfer-refunded"),
        transfers.events(failed.id()).map(RecordedEvent::eventType).toList());
    List<RecordedEvent<AccountEvent>> anns = accounts.events(ann).toList();
    assertEquals(new MoneyDeposited(40_00, failed.id().value() + "-refund"), anns.get(anns.size() - 1).event());
  }

  @Test
  void aTransferACrashLeftAfterTheDebitIsFinishedByResumeWithoutDebitingTwice() {
    AccountId ann = open("Ann", 100_00);
    AccountId bob = open("Bob", 0);
    TransferId id = TransferId.random();
    transfers.create(new TransferEvent.Requested(id, ann, bob, 30_00, clock.instant()));
    // The process debited the source, then crashed before it recorded the step on the transfer.
    accounts.transact(ann, TransferService.step(id, "debit"), account -> account.withdraw(30_00, id.value()));

    Transfer done = service.resume(id);
    Transfer again = service.resume(id);

    assertEquals(Transfer.Status.COMPLETED, done.status());
    assertEquals(done, again);
    assertEquals(70_00, accounts.load(ann).balanceCents(), "debited once");
    assertEquals(30_00, accounts.load(bob).balanceCents(), "credited once");
    assertEquals(3, transfers.events(id).count());
  }

  @Test
  void aTransferToAnUnknownAccountStartsNothing() {
    AccountId ann = open("Ann", 10_00);

    assertThrows(AggregateNotFoundException.class, () -> service.transfer(ann, AccountId.random(), 1_00));
    assertEquals(2, accounts.loadVersioned(ann).version(), "only the opening and the initial deposit");
  }

  @Test
  void aTransferFromAnUnknownAccountStoresNoTransfer() {
    AccountId bob = open("Bob", 0);
    int transfersBefore = transfers.listAll(PageRequest.first(100)).items().size();

    assertThrows(AggregateNotFoundException.class, () -> service.transfer(AccountId.random(), bob, 1_00));

    assertEquals(transfersBefore, transfers.listAll(PageRequest.first(100)).items().size(),
        "no transfer that resume could never finish");
    assertEquals(1, accounts.loadVersioned(bob).version());
  }

  @Test
  void eachStepIsStoredAtTheTimeTheClockShowed() {
    AccountId ann = open("Ann", 100_00);
    AccountId bob = open("Bob", 0);
    Instant at = clock.advance(Duration.ofDays(3));

    Transfer done = service.transfer(ann, bob, 25_00);

    List<RecordedEvent<TransferEvent>> steps = transfers.events(done.id()).toList();
    assertEquals(List.of("transfer-requested", "transfer-debited", "transfer-completed"),
        steps.stream().map(RecordedEvent::eventType).toList());
    assertEquals(List.of(at, at, at), steps.stream().map(RecordedEvent::recordedAt).toList());
    List<RecordedEvent<AccountEvent>> bobs = accounts.events(bob).toList();
    assertEquals(new MoneyDeposited(25_00, done.id().value()), bobs.get(bobs.size() - 1).event(),
        "the credit names the transfer");
  }
}
