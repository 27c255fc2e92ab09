package dev.esgen.example.transfer;

import dev.esgen.example.account.AccountId;
import dev.esgen.example.account.AccountRuleException;
import dev.esgen.example.account.BankAccountRepository;
import java.time.Clock;

/**
 * Moves money between accounts. A service as users write them: it receives the generated repositories
 * through its constructor and never sees DynamoDB.
 *
 * <p>Each step is its own atomic append: request the transfer, debit the source, mark it debited,
 * credit the target, complete it. Debit and credit carry the transfer id as their reference, so a
 * transfer left half done by a crash can be found and finished.
 */
public final class TransferService {

  private final BankAccountRepository accounts;
  private final TransferRepository transfers;
  private final Clock clock;

  public TransferService(BankAccountRepository accounts, TransferRepository transfers, Clock clock) {
    this.accounts = accounts;
    this.transfers = transfers;
    this.clock = clock;
  }

  /**
   * Transfers {@code cents} from one account to another.
   *
   * @return the finished transfer: {@code COMPLETED}, or {@code FAILED} when the source refused the debit
   */
  public Transfer transfer(AccountId from, AccountId to, long cents) {
    if (from.equals(to)) {
      throw new IllegalArgumentException("a transfer needs two different accounts");
    }
    accounts.load(to); // fail fast, before any money moves, if the target does not exist
    TransferId id = TransferId.random();
    transfers.create(new TransferEvent.Requested(id, from, to, cents, clock.instant()));
    try {
      accounts.transact(from, account -> account.withdraw(cents, id.value()));
    } catch (AccountRuleException refused) {
      return transfers.transact(id, transfer -> transfer.fail(refused.getMessage())).state();
    }
    transfers.transact(id, Transfer::markDebited);
    accounts.transact(to, account -> account.deposit(cents, id.value()));
    return transfers.transact(id, Transfer::complete).state();
  }
}
