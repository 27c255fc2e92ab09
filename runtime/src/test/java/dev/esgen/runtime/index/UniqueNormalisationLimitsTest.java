package dev.esgen.runtime.index;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.esgen.annotations.Normalization;
import dev.esgen.runtime.EventStore;
import dev.esgen.runtime.aggregate.LayoutKind;
import dev.esgen.runtime.aggregate.SnapshotPolicy;
import dev.esgen.runtime.config.StoreConfig;
import dev.esgen.runtime.counter.Counter;
import dev.esgen.runtime.counter.CounterCreated;
import dev.esgen.runtime.counter.CounterEvent;
import dev.esgen.runtime.counter.CounterId;
import dev.esgen.runtime.counter.CounterRepository;
import dev.esgen.runtime.error.DuplicateValueException;
import dev.esgen.runtime.internal.keys.IndexKeys;
import dev.esgen.runtime.repository.EventSourcedRepository;
import dev.esgen.runtime.testing.TestDynamo;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class UniqueNormalisationLimitsTest {

  private final String name = "un-" + UUID.randomUUID().toString().substring(0, 8);

  static final class Handles extends EventSourcedRepository<Counter, CounterId, CounterEvent> {
    final IndexColumn handle;

    Handles(EventStore store, String name, LayoutKind layout, Normalization normalization) {
      this(store, name, layout, IndexColumn.unique("handle", normalization));
    }

    private Handles(EventStore store, String name, LayoutKind layout, IndexColumn handle) {
      super(store, CounterRepository.builder(name, store.objectMapper(), SnapshotPolicy.every(5), layout)
          .indexColumns(new IndexColumns<Counter>() {
            @Override
            public List<IndexColumn> columns() {
              return List.of(handle);
            }

            @Override
            public Map<String, String> values(Counter state) {
              return Map.of("handle", state.name());
            }
          }).build());
      this.handle = handle;
    }

    Optional<Counter> findByHandle(String value) {
      return findByUnique(handle, value);
    }
  }

  private Map<String, String> reservations() {
    Map<String, String> found = new java.util.TreeMap<>();
    for (var item : IndexAudit.scan(StoreConfig.defaults().snapshotTable(), "pkey", name + "#")) {
      found.put(item.get("pkey").s(), item.get("aid").s());
    }
    return found;
  }

  @ParameterizedTest
  @EnumSource(LayoutKind.class)
  void valuesThatNormaliseAlike(LayoutKind layout) {
    Handles handles = new Handles(TestDynamo.store(), name, layout, Normalization.NFKC_TRIMMED_CASE_INSENSITIVE);
    CounterId ann = CounterId.random();
    handles.create(new CounterCreated(ann, "  Ann\t"));
    for (String alike : List.of("ann", "ANN", "\uFF21\uFF4E\uFF4E", " ann ")) {
      CounterId other = CounterId.random();
      DuplicateValueException e = assertThrows(DuplicateValueException.class,
          () -> handles.create(new CounterCreated(other, alike)));
      assertEquals(alike, e.value());
      assertEquals(Optional.empty(), handles.findById(other));
      assertEquals(ann, handles.findByHandle(alike).orElseThrow().id());
    }
    assertEquals(Map.of(name + "#handle#ann", ann.value()), reservations());
  }

  /** 'ẞ' (3 bytes) lower-cases to 'ß' (2 bytes): the raw value's key is too long, the reserved one fits. */
  @ParameterizedTest
  @EnumSource(LayoutKind.class)
  void aValueWhoseNormalFormFitsIsStoredAndFound(LayoutKind layout) {
    Handles handles = new Handles(TestDynamo.store(), name, layout, Normalization.CASE_INSENSITIVE);
    int room = IndexKeys.KEY_LIMIT_BYTES - (name + "#handle#").length();
    String value = "\u1E9E".repeat(room / 2);
    assertTrue(IndexKeys.valueKey(name, "handle", value).getBytes(StandardCharsets.UTF_8).length > 2048);
    CounterId id = CounterId.random();
    handles.create(new CounterCreated(id, value));
    assertEquals(id, handles.findByHandle(value).orElseThrow().id());
    assertEquals(1, reservations().size());
    assertThrows(DuplicateValueException.class,
        () -> handles.create(new CounterCreated(CounterId.random(), "\u00DF".repeat(room / 2))));
  }

  /** 'İ' (2 bytes) lower-cases to 'i̇' (3 bytes): the raw value's key fits, the reserved one would not. */
  @ParameterizedTest
  @EnumSource(LayoutKind.class)
  void aValueWhoseNormalFormIsTooLongIsRefusedBeforeAnyWrite(LayoutKind layout) {
    Handles handles = new Handles(TestDynamo.store(), name, layout, Normalization.CASE_INSENSITIVE);
    int room = IndexKeys.KEY_LIMIT_BYTES - (name + "#handle#").length();
    String value = "\u0130".repeat(room / 2);
    CounterId id = CounterId.random();
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> handles.create(new CounterCreated(id, value)));
    assertTrue(e.getMessage().contains("handle") && e.getMessage().contains("2048"), e.getMessage());
    assertEquals(Optional.empty(), handles.findById(id));
    assertEquals(Optional.empty(), handles.findByHandle(value));
    assertEquals(Map.of(), reservations());
    // NFKC expands U+FDFA to 18 characters
    Handles nfkc = new Handles(TestDynamo.store(), name, layout, Normalization.NFKC_TRIMMED_CASE_INSENSITIVE);
    CounterId expanded = CounterId.random();
    assertThrows(IllegalArgumentException.class,
        () -> nfkc.create(new CounterCreated(expanded, "\uFDFA".repeat(100))));
    assertEquals(Optional.empty(), nfkc.findById(expanded));
    assertEquals(Map.of(), reservations());
  }

  /** Streams stored before the column was unique, reindexed from racing threads: exactly one gets the value. */
  @ParameterizedTest
  @EnumSource(LayoutKind.class)
  void racingReindexesOfTwoHoldersOfOneValue(LayoutKind layout) throws Exception {
    CounterRepository plain = new CounterRepository(TestDynamo.store(),
        CounterRepository.builder(name, TestDynamo.store().objectMapper(), SnapshotPolicy.every(5), layout).build());
    Handles handles = new Handles(TestDynamo.store(), name, layout, Normalization.CASE_INSENSITIVE);
    for (int round = 0; round < 4; round++) {
      CounterId a = CounterId.random();
      CounterId b = CounterId.random();
      plain.create(new CounterCreated(a, "Same" + round));
      plain.create(new CounterCreated(b, "same" + round));
      java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(6);
      java.util.concurrent.CountDownLatch start = new java.util.concurrent.CountDownLatch(1);
      List<java.util.concurrent.Future<String>> results = new java.util.ArrayList<>();
      for (int t = 0; t < 6; t++) {
        CounterId id = t % 2 == 0 ? a : b;
        int kind = t;
        results.add(pool.submit(() -> {
          start.await();
          try {
            if (kind >= 4) {
              var report = handles.reindexAll();
              return "all:" + report.duplicates().size();
            }
            handles.reindex(id);
            return "won:" + id.value();
          } catch (DuplicateValueException e) {
            return "dup";
          }
        }));
      }
      start.countDown();
      List<String> outcomes = new java.util.ArrayList<>();
      for (var r : results) {
        outcomes.add(r.get());
      }
      pool.shutdown();
      long winners = outcomes.stream().filter(o -> o.startsWith("won:")).distinct().count();
      assertTrue(winners <= 1, outcomes.toString());
      String key = name + "#handle#same" + round;
      String holder = reservations().get(key);
      assertTrue(holder != null && (holder.equals(a.value()) || holder.equals(b.value())), outcomes.toString());
      outcomes.stream().filter(o -> o.startsWith("won:"))
          .forEach(o -> assertEquals("won:" + holder, o, outcomes.toString()));
    }
  }
}
