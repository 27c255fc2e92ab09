package dev.esgen.example.account;

/** The events that move money in or out; a nested sealed level of {@link AccountEvent}. */
public sealed interface BalanceChanged extends AccountEvent permits MoneyDeposited, MoneyWithdrawn {

  /** Positive for money in, negative for money out. */
  long deltaCents();
}
