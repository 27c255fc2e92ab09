package dev.esgen.bench.domain;

import dev.esgen.annotations.DomainEvents;

/** The benchmark domain's events: a creating event, a small event and a 2 KB one. */
@DomainEvents
public sealed interface CartEvent permits CartOpened, ItemAdded, LinesAdded {}
