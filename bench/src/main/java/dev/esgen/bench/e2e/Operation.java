package dev.esgen.bench.e2e;

import java.util.Optional;
import java.util.function.BiConsumer;

/**
 * One end-to-end operation: the stream each call needs, prepared untimed, and the timed call on a side.
 * An operation that does not exist yet is listed with the reason, so the report says so instead of
 * leaving it out.
 *
 * @param name as the report shows it
 * @param stream what each call's stream looks like before the call
 * @param call the timed call
 * @param unavailable why the operation cannot be measured yet; empty when it can
 */
public record Operation(String name, StreamShape stream, BiConsumer<Side, Fixture> call, Optional<String> unavailable) {

  /** What a call's stream looks like before the timed call. */
  public enum StreamShape {
    /** Not created yet; every call gets a fresh one. */
    NEW(0, true),
    /** Just created: version 1, snapshot current; every call gets a fresh one (the call writes). */
    FRESH(0, true),
    /** Snapshot current; read-only calls share a few. */
    SNAPSHOT_CURRENT(0, false),
    TEN_AFTER_SNAPSHOT(10, false),
    HUNDRED_AFTER_SNAPSHOT(100, false),
    /** Snapshot current, one of {@link Fixture#LOOKUP_GROUP} carts with the same owner; read-only calls share a few. */
    LOOKUP_GROUP(0, false);

    private final int eventsAfterSnapshot;
    private final boolean onePerCall;

    StreamShape(int eventsAfterSnapshot, boolean onePerCall) {
      this.eventsAfterSnapshot = eventsAfterSnapshot;
      this.onePerCall = onePerCall;
    }

    public int eventsAfterSnapshot() {
      return eventsAfterSnapshot;
    }

    public boolean onePerCall() {
      return onePerCall;
    }
  }

  public static Operation of(String name, StreamShape stream, BiConsumer<Side, Fixture> call) {
    return new Operation(name, stream, call, Optional.empty());
  }

  public static Operation notYetAvailable(String name, String reason) {
    return new Operation(name, StreamShape.NEW, (side, fixture) -> {}, Optional.of(reason));
  }
}
