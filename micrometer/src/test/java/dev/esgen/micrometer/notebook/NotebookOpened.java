package dev.esgen.micrometer.notebook;

import dev.esgen.annotations.EventType;

/** A notebook was opened under a title no other notebook has. */
@EventType("notebook-opened")
public record NotebookOpened(NotebookId id, String title) implements NotebookEvent {}
