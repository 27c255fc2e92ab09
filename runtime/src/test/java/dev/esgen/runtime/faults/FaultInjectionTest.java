package dev.esgen.runtime.faults;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.esgen.runtime.DynamoDbEventStore;
import dev.esgen.runtime.config.RetryPolicy;
import dev.esgen.runtime.config.StoreConfig;
import dev.esgen.runtime.counter.Counter;
import dev.esgen.runtime.counter.CounterCreated;
import dev.esgen.runtime.counter.CounterEvent;
import dev.esgen.runtime.counter.CounterId;
import dev.esgen.runtime.counter.Incremented;
import dev.esgen.runtime.counter.IndexedCounterRepository;
import dev.esgen.runtime.counter.Noted;
import dev.esgen.runtime.error.AppendOutcomeUnknownException;
import dev.esgen.runtime.error.DuplicateValueException;
import dev.esgen.runtime.error.FailureKind;
import dev.esgen.runtime.error.StoreUnavailableException;
import dev.esgen.runtime.error.VersionConflictException;
import dev.esgen.runtime.faults.StoredStreams.StoredAppend;
import dev.esgen.runtime.faults.StoredStreams.StoredStream;
import dev.esgen.runtime.internal.keys.IndexKeys;
import dev.esgen.runtime.metrics.FailedAttempt;
import dev.esgen.runtime.metrics.OperationMetrics;
import dev.esgen.runtime.metrics.StoreListener;
import dev.esgen.runtime.repository.EventSourcedRepository;
import dev.esgen.runtime.repository.Versioned;
import dev.esgen.runtime.testing.Contention;
import dev.esgen.runtime.testing.TestDynamo;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import software.amazon.awssdk.core.SdkRequest;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsRequest;

/**
 * The promise under faults: an append the caller saw succeed is stored exactly once, an append that
 * failed is stored wholly or not at all, and the exception type says which.
 *
 * <p>Per layout, four writer threads run a few hundred commands on a handful of hot aggregates, some of
 * them with a {@code @Unique} value the others compete for; three in four commands are idempotent
 * ({@code transact} with a command id), the others plain {@code transact}. They go through a client that
 * makes about 30 % of all requests fail (see {@link Fault}), sometimes many in a row, and sometimes lets
 * other writers append while a response is lost. Then, with faults off, every command whose outcome was
 * unknown is repeated with its command id (without one, the stream is searched for the append id the
 * exception names), and everything is checked against what the tables hold: each command's events are
 * stored once if it was acknowledged, not at all if it failed with a "nothing written" exception, every
 * append whole, every command record with its append, and every reservation held by the aggregate whose
 * state holds its value.
 *
 * <p>The figures of the run go to {@code target/fault-report.md}.
 */
class FaultInjectionTest {

  private static final long SEED = 20_261_123L;
  private static final int THREADS = 4;
  private static final int COMMANDS_PER_THREAD = 64;
  private static final int PLAIN_AGGREGATES = 3;
  private static final int INDEXED_AGGREGATES = 2;
  /** Enough attempts for most commands to get through faults and conflicts; a streak of 10 outlasts it. */
  private static final RetryPolicy POLICY =
      new RetryPolicy(8, Duration.ofMillis(1), Duration.ofMillis(20), Duration.ofSeconds(10));
  private static final int STREAK = 10;

  private static final Map<Layout, Figures> REPORT = Collections.synchronizedMap(new EnumMap<>(Layout.class));

  @ParameterizedTest
  @EnumSource(value = Layout.class, names = {"JOURNAL", "TIP_CALVING"})
  void everyAcknowledgedCommandIsStoredOnceAndEveryFailedOneNotAtAll(Layout layout) throws Exception {
    TestDynamo.client(); // DynamoDB Local is started before the clock runs
    long started = System.nanoTime();
    String run = UUID.randomUUID().toString().substring(0, 8);
    FaultInjector faults = FaultInjector.builder(SEED + layout.ordinal())
        .rate(Fault.LOST_RESPONSE, 0.05)
        .rate(Fault.LOST_RESPONSE_AFTER_OTHERS, 0.02)
        .rate(Fault.TIMEOUT_AFTER_APPLY, 0.04)
        .rate(Fault.TIMEOUT_BEFORE_SEND, 0.04)
        .rate(Fault.SERVER_ERROR, 0.04)
        .rate(Fault.THROTTLED, 0.04)
        .rate(Fault.TRANSACTION_CONFLICT, 0.04)
        .rate(Fault.THROTTLED_CANCELLATION, 0.02)
        .streaks(0.025, STREAK)
        .build();
    // The transaction-only faults are drawn on the few transactions a tip run sends; one of each is scripted
    // so that the run exercises them whatever the threads' interleaving makes of the draws.
    faults.enqueue(TransactWriteItemsRequest.class, Fault.TRANSACTION_CONFLICT, Fault.THROTTLED_CANCELLATION);
    FailedAttempts seen = new FailedAttempts();
    DynamoDbEventStore faulty = FaultyDynamo.store(FaultyDynamo.client(faults), POLICY, seen);
    DynamoDbEventStore clean = TestDynamo.store(StoreConfig.defaults().withRetryPolicy(Contention.PATIENT));
    Ledger ledger = new Ledger();

    List<Target> targets = new ArrayList<>();
    for (int k = 0; k < PLAIN_AGGREGATES + INDEXED_AGGREGATES; k++) {
      boolean indexed = k >= PLAIN_AGGREGATES;
      targets.add(new Target(CounterId.random(),
          indexed ? layout.indexed(faulty) : layout.counters(faulty),
          indexed ? layout.indexed(clean) : layout.counters(clean), indexed));
    }
    // Creation under faults too: a create whose outcome is unknown or that found the store unavailable is
    // repeated with its command id until it is acknowledged.
    for (Target target : targets) {
      Command create = ledger.add(new Command(run + "-create-" + target.id().value(), target,
          List.of(new CounterCreated(target.id(), target.indexed() ? run + "-name" : "c")), true, false));
      while (!create.run(repository -> repository.create(create.commandId(), create.events()))
          && create.outcome() != Outcome.UNEXPECTED) {
        create.retriedCreate();
      }
      assertEquals(Outcome.ACKNOWLEDGED, create.outcome(), create.failure);
    }
    AtomicInteger interlopers = new AtomicInteger();
    faults.onLostResponse(request -> interlope(request, targets, ledger, run, interlopers));

    int total = THREADS * COMMANDS_PER_THREAD;
    List<Command> commands = new ArrayList<>();
    for (int i = 0; i < total; i++) {
      commands.add(ledger.add(command(run, i, targets)));
    }
    Contention.run(THREADS, COMMANDS_PER_THREAD, (thread, i) -> {
      Command command = commands.get(i * THREADS + thread);
      command.run(repository -> command.idempotent()
          ? repository.transact(command.target().id(), command.commandId(), command::decide)
          : repository.transact(command.target().id(), command::decide));
    });
    faults.enabled(false);

    // A new process finishes what was left unknown: the same command ids, no faults; without a command
    // id, the stream is read for the append id the exception names.
    for (Command command : ledger.all()) {
      if (command.outcome() == Outcome.UNKNOWN) {
        command.resolve(ledger.stored(command));
      }
    }

    Figures figures = ledger.verify(run, targets, faults, seen, System.nanoTime() - started);
    REPORT.put(layout, figures);
    assertEquals(List.of(), figures.unexpected, "exceptions a fault must not cause");
    assertEquals(List.of(), figures.problems, "what is stored");
    assertEquals(0, figures.lost, "acknowledged but not stored");
    assertEquals(0, figures.duplicated, "stored more than once");
    assertEquals(0, figures.partial, "appends not stored whole");
    assertEquals(0, figures.phantom, "reported as not written but stored");
    assertEquals(0, figures.unresolved, "outcome still unknown after the repeat");
    assertEquals(faults.executions(), faults.transmissions(), "the SDK retried by itself");
    // The run must have exercised what it claims to.
    for (Fault fault : Fault.values()) {
      assertTrue(figures.injected.get(fault) > 0, fault + " was never injected: " + figures.injected);
    }
    assertTrue(figures.appliedWrites > 0, "no write applied behind a lost response");
    assertTrue(figures.acknowledged > total / 2, "only " + figures.acknowledged + " of " + total + " acknowledged");
    assertTrue(figures.unknown > 0, "no outcome was unknown");
    assertTrue(figures.nothingWritten.getOrDefault("DuplicateValueException", 0L) > 0, "no unique value collided");
    assertTrue(figures.interlopers > 0, "no writer appended while a response was lost");
  }

  @AfterAll
  static void writeReport() throws IOException {
    if (REPORT.isEmpty()) {
      return;
    }
    StringBuilder md = new StringBuilder();
    md.append("# Fault injection: figures of one run\n\n")
        .append("Written by `FaultInjectionTest` (runtime/src/test/java/dev/esgen/runtime/faults). Per layout: ")
        .append(THREADS).append(" writer threads, ").append(THREADS * COMMANDS_PER_THREAD)
        .append(" commands, three in four `transact(id, commandId, decide)` and the rest `transact(id, decide)`, on ")
        .append(PLAIN_AGGREGATES)
        .append(" hot counters and ").append(INDEXED_AGGREGATES)
        .append(" hot counters with a `@Unique` note the others compete for; retry policy ")
        .append(POLICY.maxAttempts()).append(" attempts, ").append(POLICY.maxDelay().toMillis())
        .append(" ms cap, ").append(POLICY.deadline().toSeconds()).append(" s deadline; random faults on about a ")
        .append("quarter of the requests, plus streaks of ").append(STREAK)
        .append(" failures in a row after a write (together about 30 %, see below). Commands whose outcome was unknown are repeated with their ")
        .append("command id, faults off (without one, the stream is searched for the append id the exception ")
        .append("names). Everything is checked against the items stored in DynamoDB Local.\n\n");
    List<Layout> layouts = new ArrayList<>(REPORT.keySet());
    md.append("| |");
    layouts.forEach(l -> md.append(' ').append(l.name().toLowerCase().replace('_', ' ')).append(" |"));
    md.append("\n|---|");
    layouts.forEach(l -> md.append("---:|"));
    md.append('\n');
    Map<String, List<String>> rows = new java.util.LinkedHashMap<>();
    for (Layout layout : layouts) {
      REPORT.get(layout).rows().forEach((name, value) -> rows.computeIfAbsent(name, n -> new ArrayList<>()).add(value));
    }
    rows.forEach((name, values) -> {
      md.append("| ").append(name).append(" |");
      values.forEach(v -> md.append(' ').append(v).append(" |"));
      md.append('\n');
    });
    Path report = Path.of("target", "fault-report.md");
    Files.createDirectories(report.getParent());
    Files.writeString(report, md.toString(), StandardCharsets.UTF_8);
  }

  /**
   * Command {@code i}: one increment tagged with its id, and on an indexed counter a note; three in four
   * carry a command id.
   */
  private static Command command(String run, int i, List<Target> targets) {
    Random random = new Random(SEED * 31 + i);
    Target target = targets.get(random.nextInt(targets.size()));
    String id = run + "-" + i;
    List<CounterEvent> events = new ArrayList<>();
    events.add(new Incremented(1, id));
    if (target.indexed()) {
      // Half of the notes come from a pool of two that the indexed counters take from each other.
      events.add(new Noted(random.nextBoolean() ? run + "-pool-" + random.nextInt(2) : run + "-note-" + i));
    }
    return new Command(id, target, List.copyOf(events), random.nextInt(4) != 0, false);
  }

  /** While a response is lost, other writers (without faults) append to the same stream. */
  private static void interlope(SdkRequest request, List<Target> targets, Ledger ledger, String run, AtomicInteger n) {
    Optional<String> aid = FaultInjector.streamOf(request);
    Optional<Target> target = targets.stream().filter(t -> aid.equals(Optional.of(t.id().value()))).findFirst();
    if (target.isEmpty()) {
      return;
    }
    int count = 1 + Math.floorMod(aid.get().hashCode() + n.get(), 10);
    for (int k = 0; k < count; k++) {
      String id = run + "-other-" + n.incrementAndGet();
      Command command = ledger.add(new Command(id, target.get(), List.of(new Incremented(1, id)), true, true));
      command.run(repository -> repository.transact(command.target().id(), command.commandId(), command::decide));
    }
  }

  /** One hot aggregate, with a repository on the faulty store and one on a clean store. */
  private record Target(CounterId id, EventSourcedRepository<Counter, CounterId, CounterEvent> faulty,
      EventSourcedRepository<Counter, CounterId, CounterEvent> clean, boolean indexed) {}

  private enum Outcome { PENDING, ACKNOWLEDGED, NOTHING_WRITTEN, UNKNOWN, UNEXPECTED }

  /** What resolving an unknown outcome found. */
  private enum Resolution { NONE, WAS_STORED, STORED_BY_REPEAT, REFUSED_BY_REPEAT, READ_STORED, READ_NOT_STORED }

  /** One command, what its caller was told, and how an unknown outcome was settled. */
  private static final class Command {
    private final String commandId;
    private final Target target;
    private final List<CounterEvent> events;
    private final boolean idempotent;
    private final boolean interloper;
    private final AtomicInteger decisions = new AtomicInteger();
    private volatile Outcome outcome = Outcome.PENDING;
    private volatile String failure = "";
    private volatile Resolution resolution = Resolution.NONE;
    private volatile String resolutionProblem = "";
    private volatile int createRetries;
    private volatile String unknownAppendId = "";

    /**
     * @param commandId the command's id, and the tag of its increment
     * @param idempotent whether it is run with its command id
     * @param interloper whether it runs on the clean store while another writer's response is lost
     */
    Command(String commandId, Target target, List<CounterEvent> events, boolean idempotent, boolean interloper) {
      this.commandId = commandId;
      this.target = target;
      this.events = events;
      this.idempotent = idempotent;
      this.interloper = interloper;
    }

    boolean idempotent() {
      return idempotent;
    }

    String commandId() {
      return commandId;
    }

    Target target() {
      return target;
    }

    List<CounterEvent> events() {
      return events;
    }

    Outcome outcome() {
      return outcome;
    }

    List<CounterEvent> decide(Counter state) {
      decisions.incrementAndGet();
      return events;
    }

    void retriedCreate() {
      createRetries++;
    }

    /** Runs the command on the repository for its store; true when acknowledged. */
    boolean run(Function<EventSourcedRepository<Counter, CounterId, CounterEvent>, Versioned<Counter>> call) {
      EventSourcedRepository<Counter, CounterId, CounterEvent> repository = interloper ? target.clean() : target.faulty();
      try {
        call.apply(repository);
        outcome = Outcome.ACKNOWLEDGED;
        return true;
      } catch (AppendOutcomeUnknownException e) {
        boolean named = e.commandId().equals(idempotent ? Optional.of(commandId) : Optional.empty())
            && e.aggregateId().equals(target.id().value());
        unknownAppendId = e.appendId();
        outcome = named ? Outcome.UNKNOWN : Outcome.UNEXPECTED;
        failure = named ? e.getClass().getSimpleName() : "does not name its command: " + e;
      } catch (VersionConflictException | StoreUnavailableException | DuplicateValueException e) {
        outcome = Outcome.NOTHING_WRITTEN;
        failure = e.getClass().getSimpleName();
      } catch (RuntimeException e) {
        outcome = Outcome.UNEXPECTED;
        failure = commandId + ": " + e;
      }
      return false;
    }

    /**
     * Repeats the command with its id on a clean store, as a restarted process would; without a command
     * id, looks for the append id the exception named among the appends stored.
     */
    void resolve(List<StoredAppend> storedBefore) {
      if (!idempotent) {
        boolean named = storedBefore.size() == 1 && storedBefore.get(0).appendId().equals(unknownAppendId);
        resolution = storedBefore.isEmpty() ? Resolution.READ_NOT_STORED : Resolution.READ_STORED;
        if (!storedBefore.isEmpty() && !named) {
          resolutionProblem = commandId + ": unknown outcome of append " + unknownAppendId + ", stored " + storedBefore;
        }
        return;
      }
      resolveByRepeating(storedBefore.size());
    }

    private void resolveByRepeating(long storedBefore) {
      int before = decisions.get();
      try {
        target.clean().transact(target.id(), commandId, this::decide);
        boolean decided = decisions.get() > before;
        resolution = storedBefore == 1 ? Resolution.WAS_STORED : Resolution.STORED_BY_REPEAT;
        if (storedBefore == 1 && decided) {
          resolutionProblem = commandId + ": stored, but the repeat decided again";
        } else if (storedBefore == 0 && !decided) {
          resolutionProblem = commandId + ": not stored, but the repeat did not decide";
        }
      } catch (DuplicateValueException e) {
        resolution = Resolution.REFUSED_BY_REPEAT;
        if (storedBefore != 0) {
          resolutionProblem = commandId + ": stored, but the repeat was refused: " + e;
        }
      }
      if (storedBefore > 1) {
        resolutionProblem = commandId + ": stored " + storedBefore + " times before the repeat";
      }
    }
  }

  /** Every command of a run, by id. */
  private static final class Ledger {
    private final Map<String, Command> commands = new ConcurrentHashMap<>();
    private final List<Command> ordered = Collections.synchronizedList(new ArrayList<>());

    Command add(Command command) {
      commands.put(command.commandId(), command);
      ordered.add(command);
      return command;
    }

    List<Command> all() {
      synchronized (ordered) {
        return List.copyOf(ordered);
      }
    }

    /** The stored appends that carry the command's tag, read raw. */
    List<StoredAppend> stored(Command command) {
      StoredStream stream = StoredStreams.read(command.target().clean().definition(), command.target().id().value());
      return stream.appends().stream().filter(a -> a.events().contains(command.events().get(0))).toList();
    }

    Figures verify(String run, List<Target> targets, FaultInjector faults, FailedAttempts seen, long nanos) {
      Figures figures = new Figures();
      figures.injected = faults.injected();
      figures.appliedWrites = faults.appliedWrites();
      figures.streaks = faults.streaks();
      figures.requests = faults.executions();
      figures.failedAttempts = seen.byKind();
      figures.millis = nanos / 1_000_000;
      Map<String, Integer> stored = new HashMap<>();
      Map<String, String> appendIds = new HashMap<>();
      Map<String, String> notes = new HashMap<>();
      for (Target target : targets) {
        var definition = target.clean().definition();
        StoredStream stream = StoredStreams.read(definition, target.id().value());
        stream.defects().forEach(d -> figures.partial(target.id().value() + ": " + d));
        for (StoredAppend append : stream.appends()) {
          Command command = commands.get(commandOf(append));
          if (command == null || !command.target().equals(target)) {
            figures.partial(target.id().value() + ": an append of no command to this stream: " + append);
            continue;
          }
          if (!append.events().equals(command.events())) {
            figures.partial(command.commandId() + ": stored " + append.events() + ", appended " + command.events());
          }
          stored.merge(command.commandId(), 1, Integer::sum);
          appendIds.put(command.commandId(), append.appendId());
        }
        Counter folded = stream.fold(definition).orElseThrow();
        Versioned<Counter> loaded = target.clean().loadVersioned(target.id());
        if (!loaded.state().equals(folded) || loaded.version() != stream.appends().size()) {
          figures.problem(target.id().value() + ": loaded " + loaded.state() + " at version " + loaded.version()
              + ", stored " + folded + " in " + stream.appends().size() + " appends");
        }
        if (target.indexed() && !folded.lastNote().isEmpty()) {
          notes.put(IndexKeys.valueKey(definition.name(), IndexedCounterRepository.NOTE.name(),
              IndexedCounterRepository.NOTE.normalize(folded.lastNote())), target.id().value());
        }
      }
      // Reservations: exactly the current notes, each held by the counter whose state holds it.
      Map<String, String> reserved = StoredStreams.reservations(IndexedCounterRepository.NAME,
          IndexedCounterRepository.NOTE, run);
      if (!reserved.equals(new TreeMap<>(notes))) {
        figures.partial("reservations " + reserved + ", current notes " + notes);
      }
      for (Command command : all()) {
        figures.commands++;
        int count = stored.getOrDefault(command.commandId(), 0);
        Optional<Map<String, AttributeValue>> record =
            StoredStreams.commandRecord(command.target().clean().definition().name(),
                command.target().id().value(), command.commandId());
        if (!command.idempotent()) {
          figures.withoutCommandId++;
          if (record.isPresent()) {
            figures.partial(command.commandId() + ": a command record for a command without an id");
          }
        } else if (record.isPresent() != (count > 0)) {
          figures.partial(command.commandId() + ": stored " + count + " times, command record " + record.isPresent());
        } else if (record.isPresent() && !record.get().get("append_id").s().equals(appendIds.get(command.commandId()))) {
          figures.partial(command.commandId() + ": the command record names another append");
        }
        if (count == 1) {
          figures.storedOnce++;
        } else if (count > 1) {
          figures.duplicated++;
          figures.problem(command.commandId() + ": stored " + count + " times");
        }
        if (command.interloper) {
          figures.interlopers++;
        }
        figures.createRetries += command.createRetries;
        if (!command.resolutionProblem.isEmpty()) {
          figures.problem(command.resolutionProblem);
        }
        switch (command.outcome()) {
          case ACKNOWLEDGED -> {
            figures.acknowledged++;
            if (count == 0) {
              figures.lost++;
              figures.problem(command.commandId() + ": acknowledged, not stored");
            }
          }
          case NOTHING_WRITTEN -> {
            figures.nothingWritten.merge(command.failure, 1L, Long::sum);
            if (count > 0) {
              figures.phantom++;
              figures.problem(command.commandId() + ": " + command.failure + ", yet stored");
            }
          }
          case UNKNOWN -> {
            figures.unknown++;
            figures.resolutions.merge(command.resolution, 1L, Long::sum);
            boolean settled = command.resolution == Resolution.REFUSED_BY_REPEAT
                || command.resolution == Resolution.READ_NOT_STORED ? count == 0 : count == 1;
            if (!settled) {
              figures.unresolved++;
              figures.problem(command.commandId() + ": unknown, " + command.resolution + ", stored " + count);
            }
          }
          case UNEXPECTED -> figures.unexpected.add(command.failure);
          default -> figures.problem(command.commandId() + ": never ran");
        }
      }
      return figures;
    }

    /** The command an append belongs to: the tag of its increment, or the create of its stream. */
    private String commandOf(StoredAppend append) {
      CounterEvent first = append.events().get(0);
      if (first instanceof Incremented incremented) {
        return incremented.tag();
      }
      if (first instanceof CounterCreated created) {
        return commands.keySet().stream()
            .filter(id -> id.endsWith("-create-" + created.id().value()))
            .findFirst().orElse("");
      }
      return "";
    }
  }

  /** Counts the failed attempts esgen reports, by kind. */
  private static final class FailedAttempts implements StoreListener {
    private final Map<FailureKind, AtomicLong> counts = new ConcurrentHashMap<>();

    @Override
    public void onOperation(OperationMetrics metrics) {}

    @Override
    public void onFailedAttempt(FailedAttempt attempt) {
      counts.computeIfAbsent(attempt.kind(), k -> new AtomicLong()).incrementAndGet();
    }

    Map<FailureKind, Long> byKind() {
      Map<FailureKind, Long> byKind = new EnumMap<>(FailureKind.class);
      counts.forEach((kind, count) -> byKind.put(kind, count.get()));
      return byKind;
    }
  }

  /** The figures of one run. */
  private static final class Figures {
    Map<Fault, Long> injected = Map.of();
    long appliedWrites;
    long streaks;
    long requests;
    Map<FailureKind, Long> failedAttempts = Map.of();
    long millis;
    long commands;
    long withoutCommandId;
    long interlopers;
    long createRetries;
    long acknowledged;
    final Map<String, Long> nothingWritten = new TreeMap<>();
    long unknown;
    final Map<Resolution, Long> resolutions = new EnumMap<>(Resolution.class);
    long storedOnce;
    long lost;
    long duplicated;
    long partial;
    long phantom;
    long unresolved;
    final List<String> unexpected = new ArrayList<>();
    final List<String> problems = new ArrayList<>();

    void partial(String what) {
      partial++;
      problems.add(what);
    }

    void problem(String what) {
      problems.add(what);
    }

    Map<String, String> rows() {
      Map<String, String> rows = new java.util.LinkedHashMap<>();
      rows.put("requests sent", Long.toString(requests));
      long total = injected.values().stream().mapToLong(Long::longValue).sum();
      rows.put("faults injected", total + String.format(" (%.0f %%)", 100.0 * total / Math.max(1, requests)));
      injected.forEach((fault, count) -> rows.put("&nbsp;&nbsp;" + fault.name().toLowerCase().replace('_', ' '),
          Long.toString(count)));
      rows.put("&nbsp;&nbsp;of which streaks", Long.toString(streaks));
      rows.put("writes applied, caller told they failed", Long.toString(appliedWrites));
      for (FailureKind kind : FailureKind.values()) {
        rows.put("failed attempts esgen saw: " + kind.name().toLowerCase().replace('_', ' '),
            Long.toString(failedAttempts.getOrDefault(kind, 0L)));
      }
      rows.put("commands (creates, " + THREADS + " threads' commands, writers during lost responses)",
          Long.toString(commands));
      rows.put("&nbsp;&nbsp;of which without a command id (`transact(id, decide)`)", Long.toString(withoutCommandId));
      rows.put("&nbsp;&nbsp;of which written during lost responses", Long.toString(interlopers));
      rows.put("acknowledged", Long.toString(acknowledged));
      for (String exception : List.of("VersionConflictException", "StoreUnavailableException",
          "DuplicateValueException")) {
        rows.put("failed, nothing written: " + exception, Long.toString(nothingWritten.getOrDefault(exception, 0L)));
      }
      rows.put("AppendOutcomeUnknownException", Long.toString(unknown));
      rows.put("&nbsp;&nbsp;repeat found it stored (decide not called)",
          Long.toString(resolutions.getOrDefault(Resolution.WAS_STORED, 0L)));
      rows.put("&nbsp;&nbsp;repeat stored it", Long.toString(resolutions.getOrDefault(Resolution.STORED_BY_REPEAT, 0L)));
      rows.put("&nbsp;&nbsp;repeat refused it (value taken meanwhile)",
          Long.toString(resolutions.getOrDefault(Resolution.REFUSED_BY_REPEAT, 0L)));
      rows.put("&nbsp;&nbsp;no command id: its append id found stored",
          Long.toString(resolutions.getOrDefault(Resolution.READ_STORED, 0L)));
      rows.put("&nbsp;&nbsp;no command id: nothing of it stored",
          Long.toString(resolutions.getOrDefault(Resolution.READ_NOT_STORED, 0L)));
      rows.put("creates repeated after an unknown outcome or unavailability", Long.toString(createRetries));
      rows.put("commands stored exactly once", Long.toString(storedOnce));
      rows.put("**lost** (acknowledged, not stored)", Long.toString(lost));
      rows.put("**duplicated** (stored more than once)", Long.toString(duplicated));
      rows.put("**partial** (appends, records or reservations not whole)", Long.toString(partial));
      rows.put("**failed but stored**", Long.toString(phantom));
      rows.put("run time", String.format("%.1f s", millis / 1000.0));
      return rows;
    }
  }
}
