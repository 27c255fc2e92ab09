package dev.esgen.runtime.faults;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.esgen.runtime.config.RetryPolicy;
import dev.esgen.runtime.counter.Counter;
import dev.esgen.runtime.counter.CounterCreated;
import dev.esgen.runtime.counter.CounterId;
import dev.esgen.runtime.counter.CounterRepository;
import dev.esgen.runtime.counter.Incremented;
import dev.esgen.runtime.error.VersionConflictException;
import dev.esgen.runtime.repository.Versioned;
import dev.esgen.runtime.testing.TestDynamo;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Two processes restored from one snapshot of a JVM (AWS Lambda SnapStart, CRaC) start with the same
 * state of every pseudo-random generator whose seed lives in the heap. Append ids drawn from such a
 * generator come out the same in both, and reading back an append of unknown outcome then takes the other
 * process's append for its own: the command is acknowledged, and its events were never stored.
 */
class RestoredSnapshotAppendIdTest {

  private static final RetryPolicy SMALL =
      new RetryPolicy(4, Duration.ofMillis(1), Duration.ofMillis(5), Duration.ofSeconds(15));

  @ParameterizedTest
  @EnumSource(value = Layout.class, names = {"JOURNAL", "TIP"})
  void anAppendOfUnknownOutcomeIsNotTakenForTheSameAppendOfAProcessRestoredFromTheSameSnapshot(Layout layout) {
    FaultInjector faults = FaultInjector.builder(12).build();
    CounterRepository restoredA = layout.counters(TestDynamo.store());
    CounterRepository restoredB = layout.counters(FaultyDynamo.store(FaultyDynamo.client(faults), SMALL));
    CounterId id = CounterId.random();
    restoredA.create(new CounterCreated(id, "c"));
    Versioned<Counter> seenByA = restoredA.loadVersioned(id);
    Versioned<Counter> seenByB = restoredB.loadVersioned(id);

    // Both processes go on from the same generator state, as two copies of one snapshot do.
    ThreadRandomState snapshot = ThreadRandomState.ofCurrentThread();
    restoredA.append(seenByA, List.of(new Incremented(1, "from A")));
    snapshot.restoreOnCurrentThread();
    // B's append is refused by the server before it is applied, so B cannot know; A holds the version.
    faults.enqueue(layout.appendRequest(false), Fault.SERVER_ERROR);

    assertThrows(VersionConflictException.class,
        () -> restoredB.append(seenByB, List.of(new Incremented(1, "from B"))),
        "B's append is not stored: another append holds its version");

    StoredStreams.StoredStream stored = StoredStreams.read(restoredA.definition(), id.value());
    assertEquals(List.of(), stored.defects());
    assertEquals(List.of(new CounterCreated(id, "c"), new Incremented(1, "from A")), stored.events());
    assertEquals(1, faults.injected().get(Fault.SERVER_ERROR));
  }

  /**
   * The calling thread's {@link java.util.concurrent.ThreadLocalRandom} state, which lives in its
   * {@code Thread} object: what a snapshot of the JVM keeps and every copy restored from it goes on from.
   * Read and written through {@code sun.misc.Unsafe}, which the {@code jdk.unsupported} module opens.
   */
  private record ThreadRandomState(long seed, int probe) {

    static ThreadRandomState ofCurrentThread() {
      java.util.concurrent.ThreadLocalRandom.current(); // initialised, so that a probe and seed exist
      Thread thread = Thread.currentThread();
      return new ThreadRandomState(
          (long) call("getLong", Object.class, long.class, thread, offset("threadLocalRandomSeed")),
          (int) call("getInt", Object.class, long.class, thread, offset("threadLocalRandomProbe")));
    }

    void restoreOnCurrentThread() {
      Thread thread = Thread.currentThread();
      call("putLong", Object.class, long.class, long.class, thread, offset("threadLocalRandomSeed"), seed);
      call("putInt", Object.class, long.class, int.class, thread, offset("threadLocalRandomProbe"), probe);
    }

    private static long offset(String field) {
      try {
        return (long) unsafe().getClass().getMethod("objectFieldOffset", Field.class)
            .invoke(unsafe(), Thread.class.getDeclaredField(field));
      } catch (ReflectiveOperationException e) {
        throw new IllegalStateException(e);
      }
    }

    private static Object call(String name, Object... typesThenArguments) {
      int half = typesThenArguments.length / 2;
      Class<?>[] types = new Class<?>[half];
      Object[] arguments = new Object[half];
      for (int i = 0; i < half; i++) {
        types[i] = (Class<?>) typesThenArguments[i];
        arguments[i] = typesThenArguments[half + i];
      }
      try {
        Method method = unsafe().getClass().getMethod(name, types);
        return method.invoke(unsafe(), arguments);
      } catch (ReflectiveOperationException e) {
        throw new IllegalStateException(e);
      }
    }

    private static Object unsafe() {
      try {
        Field field = Class.forName("sun.misc.Unsafe").getDeclaredField("theUnsafe");
        field.setAccessible(true);
        return field.get(null);
      } catch (ReflectiveOperationException e) {
        throw new IllegalStateException(e);
      }
    }
  }
}
