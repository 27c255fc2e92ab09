package fixture;

import dev.esgen.annotations.EventType;

@EventType("account-opened")
public record AccountOpened(AccountId id, String owner, String email) implements AccountEvent {}
