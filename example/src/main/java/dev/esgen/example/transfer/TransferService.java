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
 * credit the target, complete it. Every step after the request carries a command id made of the transfer
 * id and the step, so that running the transfer again after a crash or a time-out ({@link #resume})
 * takes each step once: a step already stored is not repeated. A credit the target refuses (it was
 * closed meanwhile) is undone by refunding the source, so money is never left between two accounts.
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
   *     or the target the credit (the source then got its money back)
   */
  public Transfer transfer(AccountId from, AccountId to, long cents) {
    if (from.equals(to)) {
      throw new IllegalArgumentException("a transfer needs two different accounts");
    }
    // Fail fast, before anything is stored, if either account does not exist: a transfer from an unknown
    // account could never be debited, and resume would meet the same failure every time.
    accounts.load(from);
    accounts.load(to);
    TransferId id = TransferId.random();
    transfers.create(new TransferEvent.Requested(id, from, to, cents, clock.instant()));
    return resume(id);
  }

  /**
   * Takes transfer {@code id} from where it stands to its end, each step at most once: call it for a
   * transfer a crash or a time-out left part way (found by its status), as often as needed.
   *
   * @return the finished transfer
   */
  public Transfer resume(TransferId id) {
    Transfer transfer = transfers.load(id);
    String reference = id.value();
    if (transfer.status() == Transfer.Status.REQUESTED) {
      long cents = transfer.cents();
      try {
        accounts.transact(transfer.from(), step(id, "debit"), account -> account.withdraw(cents, reference));
      } catch (AccountRuleException refused) {
        return transfers.transact(id, step(id, "fail"), t -> t.fail(refused.getMessage())).state();
      }
      transfer = transfers.transact(id, step(id, "mark-debited"), Transfer::markDebited).state();
    }
    if (transfer.status() != Transfer.Status.DEBITED) {
      return transfer;
    }
    Transfer debited = transfer;
    try {
      accounts.transact(debited.to(), step(id, "credit"), account -> account.deposit(debited.cents(), reference));
    } catch (AccountRuleException refused) {
      // The money goes back where it came from. Should the source have been closed meanwhile too, this
      // throws and the transfer stays DEBITED for a person to settle.
      accounts.transact(debited.from(), step(id, "refund"),
          account -> account.deposit(debited.cents(), reference + "-refund"));
      return transfers.transact(id, step(id, "refunded"), t -> t.refund(refused.getMessage())).state();
    }
    return transfers.transact(id, step(id, "complete"), Transfer::complete).state();
  }

  /**
   * The command id of step {@code step} ({@code debit}, {@code credit}, {@code refund}, ...) of transfer
   * {@code id}: the same whenever the step is run again, so that it is stored once.
   */
  public static String step(TransferId id, String step) {
    return "transfer-" + id.value() + "-" + step;
  }
}
