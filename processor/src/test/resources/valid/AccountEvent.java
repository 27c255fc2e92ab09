package fixture;

import dev.esgen.annotations.DomainEvents;

@DomainEvents
public sealed interface AccountEvent permits AccountOpened, MoneyDeposited, AccountClosed {}
