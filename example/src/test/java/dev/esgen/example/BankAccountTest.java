package dev.esgen.example;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.esgen.example.account.AccountClosed;
import dev.esgen.example.account.AccountEvent;
import dev.esgen.example.account.AccountId;
import dev.esgen.example.account.AccountOpened;
import dev.esgen.example.account.AccountRuleException;
import dev.esgen.example.account.BankAccount;
import dev.esgen.example.account.BankAccountRepository;
import dev.esgen.example.account.EmailChanged;
import dev.esgen.example.account.MoneyDeposited;
import dev.esgen.example.account.MoneyWithdrawn;
import dev.esgen.runtime.codec.EsgenJson;
import dev.esgen.testkit.fixture.AggregateFixture;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The account's decisions, no store: given the events that happened, when a command runs, then these events
 * (or this exception). Every event and state also goes through its stored form, as in a repository.
 */
class BankAccountTest {

  private static final AggregateFixture<BankAccount, AccountId, AccountEvent> ACCOUNTS =
      AggregateFixture.of(BankAccountRepository.definition(EsgenJson.newObjectMapper()));

  private final AccountId id = new AccountId(UUID.fromString("00000000-0000-0000-0000-000000000001"));
  private final Instant at = Instant.parse("2026-01-02T03:04:05Z");
  private final AccountOpened opened = new AccountOpened(id, "Ann", "ann@example.com", at);

  @Test
  void anAccountOpensWithAnOwner() {
    ACCOUNTS.givenNothing()
        .whenCreating(() -> List.of(BankAccount.opening(id, "Ann", "ann@example.com", at)))
        .thenEvents(opened)
        .thenState(new BankAccount(id, "Ann", "ann@example.com", 0, false));
    ACCOUNTS.givenNothing()
        .whenCreating(() -> List.of(BankAccount.opening(id, " ", "ann@example.com", at)))
        .thenThrows(AccountRuleException.class);
  }

  @Test
  void withdrawingMoreThanTheBalanceIsRefused() {
    AccountRuleException refused = ACCOUNTS.given(opened, new MoneyDeposited(500, "salary"))
        .when(account -> account.withdraw(501, "rent"))
        .thenThrows(AccountRuleException.class);

    assertEquals("account " + id.value() + ": the balance does not cover the withdrawal", refused.getMessage());
    ACCOUNTS.given(opened, new MoneyDeposited(500, "salary"))
        .when(account -> account.withdraw(500, "rent"))
        .thenEvents(new MoneyWithdrawn(500, "rent"))
        .thenState("empty", account -> account.balanceCents() == 0);
  }

  @Test
  void closingPaysOutTheRestFirst() {
    ACCOUNTS.given(opened, new MoneyDeposited(500, "salary"))
        .when(account -> account.close("moving"))
        .thenEvents(new MoneyWithdrawn(500, "payout on closing"), new AccountClosed("moving"))
        .thenState(new BankAccount(id, "Ann", "ann@example.com", 0, true));
  }

  @Test
  void aClosedAccountTakesNoMoney() {
    ACCOUNTS.given(opened, new AccountClosed("moving"))
        .when(account -> account.deposit(1, "late"))
        .thenThrows(AccountRuleException.class);
  }

  @Test
  void amountsMustBePositive() {
    ACCOUNTS.given(opened).when(account -> account.deposit(0, "nothing")).thenThrows(AccountRuleException.class);
    ACCOUNTS.given(opened).when(account -> account.withdraw(-5, "negative")).thenThrows(AccountRuleException.class);
  }

  @Test
  void aStateFromLongAgoTakesANewAddress() {
    ACCOUNTS.givenState(new BankAccount(id, "Ann", "ann@example.com", 12_345, false))
        .when(account -> account.changeEmail("ann@new.example"))
        .thenEvents(new EmailChanged("ann@new.example"))
        .thenState(new BankAccount(id, "Ann", "ann@new.example", 12_345, false));
  }
}
