package dev.esgen.spring.boot.app;

import dev.esgen.annotations.DomainEvents;

/** What happens to a shopping cart. */
@DomainEvents
public sealed interface CartEvent permits CartOpened, ItemAdded {}
