package dev.esgen.runtime.counter;

import dev.esgen.runtime.aggregate.Replay;

/**
 * The counter's replay, except that a counter without a note refuses an increment tagged {@link #TAG}:
 * an apply handler that throws on some states, for tests of what happens when it throws on a stale one.
 */
public final class NoteFirstReplay implements Replay<Counter, CounterEvent> {

  /** The tag of an increment that needs a note first. */
  public static final String TAG = "needs-a-note";

  private final Replay<Counter, CounterEvent> replay = CounterRepository.replay();

  @Override
  public Counter create(CounterEvent event) {
    return replay.create(event);
  }

  @Override
  public Counter apply(Counter state, CounterEvent event) {
    if (event instanceof Incremented increment && increment.tag().equals(TAG) && state.notes() == 0) {
      throw new IllegalStateException("an increment tagged " + TAG + " needs a note first");
    }
    return replay.apply(state, event);
  }
}
