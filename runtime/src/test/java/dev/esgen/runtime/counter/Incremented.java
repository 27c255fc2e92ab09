package dev.esgen.runtime.counter;

/** Adds {@code by}; {@code tag} makes every increment recognisable in the journal. */
public record Incremented(long by, String tag) implements CounterEvent {

  public Incremented(long by) {
    this(by, "");
  }
}
