package dev.esgen.runtime.counter;

/** Carries free text, used to make events (and snapshots) as large as a test needs. */
public record Noted(String text) implements CounterEvent {}
