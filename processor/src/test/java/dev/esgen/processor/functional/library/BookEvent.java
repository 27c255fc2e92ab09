package dev.esgen.processor.functional.library;

import dev.esgen.annotations.DomainEvents;

/** Two sealed levels: loans are handled by one handler taking the intermediate {@link LoanEvent}. */
@DomainEvents
public sealed interface BookEvent permits BookAdded, LoanEvent {}
