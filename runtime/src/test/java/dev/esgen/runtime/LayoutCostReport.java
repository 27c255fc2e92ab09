package dev.esgen.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.esgen.runtime.aggregate.LayoutKind;
import dev.esgen.runtime.aggregate.SnapshotPolicy;
import dev.esgen.runtime.aggregate.TipPolicy;
import dev.esgen.runtime.config.StoreConfig;
import dev.esgen.runtime.counter.Counter;
import dev.esgen.runtime.counter.CounterCreated;
import dev.esgen.runtime.counter.CounterEvent;
import dev.esgen.runtime.counter.CounterId;
import dev.esgen.runtime.counter.CounterRepository;
import dev.esgen.runtime.counter.Noted;
import dev.esgen.runtime.internal.storage.AppendRequest;
import dev.esgen.runtime.internal.storage.LoadedStream;
import dev.esgen.runtime.metrics.OperationMetrics;
import dev.esgen.runtime.testing.TestDynamo;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * Measures requests and capacity units per append and per load for both layouts against DynamoDB
 * Local (the append columns average the stream's last ten single-event appends, each measured on its
 * own, without the load a repository append does first; the load columns are one {@code load}), and
 * writes the Markdown table of {@code docs/layouts.md} to {@code runtime/target/layout-costs.md}. It
 * checks what that page says of the figures: one request per append, a tip with its snapshot loaded in
 * one request of at most 1 RCU, and tip appends with the default policy never dearer than the journal's.
 * Off by default (it writes some 20 MB); run it with
 * {@code mvn -q verify -pl runtime -am -Dtest=LayoutCostReport -Dsurefire.failIfNoSpecifiedTests=false -Desgen.costReport=true}.
 */
@EnabledIfSystemProperty(named = "esgen.costReport", matches = "true")
class LayoutCostReport {

  private static final int MEASURED_APPENDS = 10;

  private final List<OperationMetrics> heard = new CopyOnWriteArrayList<>();
  private final DynamoDbEventStore store = TestDynamo.store(StoreConfig.defaults().withListener(heard::add));

  @Test
  void measure() throws IOException {
    List<String> rows = new ArrayList<>();
    Map<String, Costs> measured = new HashMap<>();
    rows.add("| layout | snapshots | event body | events in stream | requests per append | WCU per append"
        + " | requests per load | RCU per load |");
    rows.add("|---|---|---|---|---|---|---|---|");
    List<Setup> setups = List.of(
        new Setup("journal", "every 100", SnapshotPolicy.every(100), LayoutKind.JOURNAL, TipPolicy.defaults()),
        new Setup("journal", "creation only", SnapshotPolicy.every(Integer.MAX_VALUE), LayoutKind.JOURNAL,
            TipPolicy.defaults()),
        new Setup("tip, default", "in tip", SnapshotPolicy.every(100), LayoutKind.TIP, TipPolicy.defaults()),
        new Setup("tip, default", "events only", SnapshotPolicy.every(100), LayoutKind.TIP,
            TipPolicy.defaults().withoutSnapshot()),
        new Setup("tip, 32 KB", "in tip", SnapshotPolicy.every(100), LayoutKind.TIP, new TipPolicy(32 * 1024, 0, true)),
        new Setup("tip, 4 KB", "in tip", SnapshotPolicy.every(100), LayoutKind.TIP, new TipPolicy(4096, 0, true)));
    for (Setup setup : setups) {
      for (int body : List.of(200, 2048)) {
        for (int length : List.of(10, 100, 1000)) {
          Costs costs = costs(setup, body, length);
          measured.put(setup.layoutLabel() + "/" + setup.snapshotLabel() + "/" + body + "/" + length, costs);
          rows.add(costs.row(setup, body, length));
        }
      }
    }
    for (int body : List.of(200, 2048)) {
      for (int length : List.of(10, 100, 1000)) {
        Costs journal = measured.get("journal/every 100/" + body + "/" + length);
        Costs tip = measured.get("tip, default/in tip/" + body + "/" + length);
        assertTrue(tip.appendUnits() <= journal.appendUnits(), () -> "WCU per tip append with the defaults, "
            + body + "-byte events, " + length + " in the stream: " + tip.appendUnits() + " against the journal's "
            + journal.appendUnits());
      }
    }
    String table = String.join("\n", rows) + "\n";
    Files.createDirectories(Path.of("target"));
    Files.writeString(Path.of("target", "layout-costs.md"), table);
    System.out.print(table);
  }

  private Costs costs(Setup setup, int body, int length) {
    CounterRepository counters = new CounterRepository(store, CounterRepository.builder(store.objectMapper(),
        setup.snapshots()).layout(setup.layout()).tipPolicy(setup.tip()).build());
    CounterId id = CounterId.random();
    String text = "x".repeat(body - 11);   // the JSON body {"text":"..."} is 11 bytes more than the text
    List<CounterEvent> first = new ArrayList<>(List.of(new CounterCreated(id, "c")));
    counters.create(first);
    // Build the stream to length - MEASURED_APPENDS events in appends of ten, then measure single appends.
    long events = 1;
    long version = 1;
    while (events < length - MEASURED_APPENDS) {
      int n = (int) Math.min(10, length - MEASURED_APPENDS - events);
      List<CounterEvent> batch = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        batch.add(new Noted(text));
      }
      version = counters.append(id, version, batch).version();
      events += n;
    }
    double appendRequests = 0;
    double appendUnits = 0;
    int measured = 0;
    while (events < length) {
      LoadedStream<Counter> loaded = TestDynamo.internals(store).layoutFor(counters.definition()).load(counters.definition(), id).orElseThrow();
      Noted noted = new Noted(text);
      heard.clear();
      TestDynamo.internals(store).recorder().record(CounterRepository.NAME, "append", attempts -> TestDynamo.internals(store).layoutFor(counters.definition())
          .append(new AppendRequest<>(counters.definition(), id, Optional.of(loaded), List.of(noted),
              counters.definition().replay().apply(loaded.state(), noted))));
      appendRequests += heard.get(0).requests();
      appendUnits += heard.get(0).writeCapacityUnits();
      events++;
      measured++;
    }
    assertEquals(1.0, appendRequests / measured, () -> "requests per append, " + setup);
    heard.clear();
    assertEquals(length, counters.loadVersioned(id).seqNr(), () -> "events loaded, " + setup);
    OperationMetrics load = heard.get(0);
    if (setup.layout() == LayoutKind.TIP && setup.tip().snapshot()) {
      assertEquals(1, load.requests(), () -> "requests per load, " + setup);
      if (setup.tip().equals(TipPolicy.defaults())) {
        assertTrue(load.readCapacityUnits() <= 1.0, () -> "RCU per load, " + setup + ": " + load.readCapacityUnits());
      }
    }
    return new Costs(appendRequests / measured, appendUnits / measured, load.requests(), load.readCapacityUnits());
  }

  private record Costs(double appendRequests, double appendUnits, int loadRequests, double loadUnits) {

    String row(Setup setup, int body, int length) {
      return String.format(Locale.ROOT, "| %s | %s | %s | %,d | %.2f | %.1f | %d | %.1f |",
          setup.layoutLabel(),
          setup.snapshotLabel(),
          body == 200 ? "200 B" : "2 KB",
          length,
          appendRequests,
          appendUnits,
          loadRequests,
          loadUnits);
    }
  }

  private record Setup(
      String layoutLabel, String snapshotLabel, SnapshotPolicy snapshots, LayoutKind layout, TipPolicy tip) {}
}
