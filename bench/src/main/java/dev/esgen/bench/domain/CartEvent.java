package dev.esgen.bench.domain;

import dev.esgen.annotations.DomainEvents;

/** The benchmark domain's events: a creating event, a small event, a 2 KB one, and
 * two that change the index columns. */
@DomainEvents
public sealed interface CartEvent permits CartOpened, ItemAdded, LinesAdded, OwnerChanged, CodeChanged {}
