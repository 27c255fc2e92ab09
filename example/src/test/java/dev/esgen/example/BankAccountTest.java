package dev.esgen.example;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.esgen.example.account.AccountClosed;
import dev.esgen.example.account.AccountId;
import dev.esgen.example.account.AccountRuleException;
import dev.esgen.example.account.BankAccount;
import dev.esgen.example.account.MoneyDeposited;
import dev.esgen.example.account.MoneyWithdrawn;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The domain's commands on their own, no storage. */
class BankAccountTest {

  private final AccountId id = new AccountId(UUID.fromString("00000000-0000-0000-0000-000000000001"));
  private final BankAccount open = new BankAccount(id, "Ann", "ann@example.com", 500, false);

  @Test
  void withdrawingMoreThanTheBalanceIsRefused() {
    AccountRuleException e = assertThrows(AccountRuleException.class, () -> open.withdraw(501, "rent"));
    assertTrue(e.getMessage().contains("holds 500 cents"), e.getMessage());
    assertEquals(List.of(new MoneyWithdrawn(500, "rent")), open.withdraw(500, "rent"));
  }

  @Test
  void closingPaysOutTheRestFirst() {
    assertEquals(
        List.of(new MoneyWithdrawn(500, "payout on closing"), new AccountClosed("moving")), open.close("moving"));
  }

  @Test
  void aClosedAccountTakesNoMoney() {
    BankAccount closed = new BankAccount(id, "Ann", "ann@example.com", 0, true);
    assertThrows(AccountRuleException.class, () -> closed.deposit(1, "late"));
    assertEquals(List.of(new MoneyDeposited(1, "x")), open.deposit(1, "x"));
  }

  @Test
  void amountsMustBePositive() {
    assertThrows(AccountRuleException.class, () -> open.deposit(0, "nothing"));
    assertThrows(AccountRuleException.class, () -> open.withdraw(-5, "negative"));
  }
}
