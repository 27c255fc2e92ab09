package fixture;

public record AccountClosed() implements AccountEvent {}
