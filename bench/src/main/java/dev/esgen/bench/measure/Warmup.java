package dev.esgen.bench.measure;

import java.util.function.IntConsumer;

/**
 * Warms two sides of a comparison up in turns: blocks of a measured round's size, the sides taking turns
 * to go first, as they do in the measured rounds. One side's whole warm-up after the other's left the
 * first measured round of the side that warmed up first on code the JIT had compiled less, and the
 * other's on caches the first had just filled.
 *
 * <pre>{@code
 * Warmup.inTurns(settings.e2eWarmupCalls(), settings.e2eCallsPerRound(), esgen::untimed, floor::untimed);
 * }</pre>
 */
public final class Warmup {

  private Warmup() {}

  /** Makes {@code calls} untimed calls on each side, {@code block} at a time, {@code first} starting. */
  public static void inTurns(int calls, int block, IntConsumer first, IntConsumer second) {
    for (int done = 0, turn = 0; done < calls; done += block, turn++) {
      int n = Math.min(block, calls - done);
      (turn % 2 == 0 ? first : second).accept(n);
      (turn % 2 == 0 ? second : first).accept(n);
    }
  }
}
