package fixture;

public record MoneyDeposited(long cents) implements AccountEvent {}
