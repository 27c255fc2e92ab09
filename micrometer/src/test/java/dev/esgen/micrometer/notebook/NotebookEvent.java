package dev.esgen.micrometer.notebook;

import dev.esgen.annotations.DomainEvents;

/** What happens to a notebook. */
@DomainEvents
public sealed interface NotebookEvent permits NotebookOpened, PageWritten {}
