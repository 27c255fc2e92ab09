package dev.esgen.runtime.testing;

import dev.esgen.runtime.aggregate.TipPolicy;
import dev.esgen.runtime.counter.CounterRepository;

/** The two storage layouts a counter test runs on, for {@code @EnumSource}. */
public enum CounterLayout {
  JOURNAL,
  TIP;

  /** Counters on this layout, in the shared test tables, with a snapshotting tip that never calves. */
  public CounterRepository repository() {
    return this == JOURNAL
        ? new CounterRepository(TestDynamo.store())
        : new CounterRepository(TestDynamo.store(), new TipPolicy(32 * 1024, 0, true));
  }
}
