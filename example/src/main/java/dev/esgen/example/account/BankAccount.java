package dev.esgen.example.account;

import dev.esgen.annotations.Aggregate;
import dev.esgen.annotations.AggregateId;
import dev.esgen.annotations.Indexed;
import dev.esgen.annotations.Normalization;
import dev.esgen.annotations.Unique;
import java.time.Instant;
import java.util.List;

/**
 * A bank account: its state is the fold of its events; its commands decide which events happen.
 *
 * <p>Snapshots every 20 events, keeping the two before the current one. Accounts are listed by owner
 * ({@code listByOwner}) and found by e-mail address ({@code loadByEmail}); no two accounts share an
 * address, compared ignoring case.
 */
@Aggregate(name = "bank-account", events = AccountEvent.class, shards = 4, snapshotEvery = 20, snapshotsToKeep = 2)
public record BankAccount(
    @AggregateId AccountId id,
    @Indexed String owner,
    @Unique(normalize = Normalization.CASE_INSENSITIVE) String email,
    long balanceCents,
    boolean closed) {

  static BankAccount open(AccountOpened e) {
    return new BankAccount(e.id(), e.owner(), e.email(), 0, false);
  }

  BankAccount apply(BalanceChanged e) {
    return new BankAccount(id, owner, email, balanceCents + e.deltaCents(), closed);
  }

  BankAccount apply(EmailChanged e) {
    return new BankAccount(id, owner, e.email(), balanceCents, closed);
  }

  BankAccount apply(AccountClosed e) {
    return new BankAccount(id, owner, email, balanceCents, true);
  }

  /** The event that opens a new account. */
  public static AccountOpened opening(AccountId id, String owner, String email, Instant at) {
    if (owner == null || owner.isBlank()) {
      throw new AccountRuleException("an account needs an owner");
    }
    return new AccountOpened(id, owner, email, at);
  }

  public List<AccountEvent> deposit(long cents, String reference) {
    requireOpen();
    requirePositive(cents);
    return List.of(new MoneyDeposited(cents, reference));
  }

  public List<AccountEvent> withdraw(long cents, String reference) {
    requireOpen();
    requirePositive(cents);
    if (cents > balanceCents) {
      // The id, not the amounts: an exception message ends up in logs, and balances are stored data.
      throw new AccountRuleException("account " + id.value() + ": the balance does not cover the withdrawal");
    }
    return List.of(new MoneyWithdrawn(cents, reference));
  }

  /** A new e-mail address; the repository refuses it when another account holds it. */
  public List<AccountEvent> changeEmail(String newEmail) {
    requireOpen();
    if (newEmail == null || newEmail.isBlank()) {
      throw new AccountRuleException("an account needs an e-mail address");
    }
    return List.of(new EmailChanged(newEmail));
  }

  /** Closing pays out what is left, then closes: two events, appended atomically. */
  public List<AccountEvent> close(String reason) {
    requireOpen();
    if (balanceCents > 0) {
      return List.of(new MoneyWithdrawn(balanceCents, "payout on closing"), new AccountClosed(reason));
    }
    return List.of(new AccountClosed(reason));
  }

  private void requireOpen() {
    if (closed) {
      throw new AccountRuleException("account " + id.value() + " is closed");
    }
  }

  private static void requirePositive(long cents) {
    if (cents <= 0) {
      throw new AccountRuleException("amount must be positive");
    }
  }
}
