package dev.esgen.micrometer.notebook;

import dev.esgen.annotations.EventType;

/** A page of text was added. */
@EventType("page-written")
public record PageWritten(String text) implements NotebookEvent {}
