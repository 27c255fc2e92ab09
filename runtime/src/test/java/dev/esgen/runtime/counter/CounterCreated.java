package dev.esgen.runtime.counter;

public record CounterCreated(CounterId id, String name) implements CounterEvent {}
