package dev.esgen.example.account;

import dev.esgen.annotations.EventType;

@EventType("money-withdrawn")
public record MoneyWithdrawn(long cents, String reference) implements BalanceChanged {

  @Override
  public long deltaCents() {
    return -cents;
  }
}
