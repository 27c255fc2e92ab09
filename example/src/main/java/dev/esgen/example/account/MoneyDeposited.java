package dev.esgen.example.account;

import dev.esgen.annotations.EventType;

@EventType("money-deposited")
public record MoneyDeposited(long cents, String reference) implements BalanceChanged {

  @Override
  public long deltaCents() {
    return cents;
  }
}
