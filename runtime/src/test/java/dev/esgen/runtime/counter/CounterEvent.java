package dev.esgen.runtime.counter;

/** The test aggregate's events, as a user would write them. */
public sealed interface CounterEvent permits CounterCreated, Incremented, Noted {}
