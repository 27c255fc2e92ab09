package dev.esgen.runtime.async;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.esgen.runtime.AsyncEventStore;
import dev.esgen.runtime.DynamoDbEventStore;
import dev.esgen.runtime.aggregate.AggregateDefinition;
import dev.esgen.runtime.aggregate.LayoutKind;
import dev.esgen.runtime.config.StateCachePolicy;
import dev.esgen.runtime.config.StoreConfig;
import dev.esgen.runtime.counter.AsyncCounterRepository;
import dev.esgen.runtime.counter.Counter;
import dev.esgen.runtime.counter.CounterCreated;
import dev.esgen.runtime.counter.CounterEvent;
import dev.esgen.runtime.counter.CounterId;
import dev.esgen.runtime.counter.Incremented;
import dev.esgen.runtime.counter.IndexedCounterRepository;
import dev.esgen.runtime.counter.Noted;
import dev.esgen.runtime.internal.StoreAccess;
import dev.esgen.runtime.internal.cache.StateCache;
import dev.esgen.runtime.metrics.FailedAttempt;
import dev.esgen.runtime.metrics.OperationMetrics;
import dev.esgen.runtime.query.PageRequest;
import dev.esgen.runtime.repository.AppendOptions;
import dev.esgen.runtime.repository.ReadOptions;
import dev.esgen.runtime.repository.Versioned;
import dev.esgen.runtime.testing.AsyncFaults;
import dev.esgen.runtime.testing.AsyncStoreFixture;
import dev.esgen.runtime.testing.RecordingListener;
import dev.esgen.runtime.testing.TestDynamo;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsRequest;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;

/**
 * The same call on the synchronous and the asynchronous repository, over the same tables, in both layouts,
 * with the state cache off and on: the same result or exception (type and message), the same operations
 * and failed attempts heard by the listener, the same requests sent, and the same stream left in the
 * state cache. Bad input, missing streams, version conflicts, taken unique values, items too large,
 * commands applied meanwhile, retries spent, outcomes unknown and lost responses.
 */
class RepositoryParityTest {

  @RegisterExtension
  final AsyncStoreFixture async = new AsyncStoreFixture();

  /** What both repositories offer, the async one awaited. */
  interface Repo {
    Versioned<Counter> create(List<CounterEvent> events);
    Versioned<Counter> create(String commandId, List<CounterEvent> events);
    Versioned<Counter> create(AppendOptions options, List<CounterEvent> events);
    Versioned<Counter> append(CounterId id, long version, List<CounterEvent> events);
    Versioned<Counter> append(CounterId id, long version, String commandId, List<CounterEvent> events);
    Versioned<Counter> append(CounterId id, long version, AppendOptions options, List<CounterEvent> events);
    Versioned<Counter> append(Versioned<Counter> loaded, List<CounterEvent> events);
    Versioned<Counter> transact(CounterId id, Function<Counter, List<CounterEvent>> decide);
    Versioned<Counter> transact(CounterId id, String commandId, Function<Counter, List<CounterEvent>> decide);
    Versioned<Counter> transact(CounterId id, AppendOptions options, Function<Counter, List<CounterEvent>> decide);
    Object findById(CounterId id, ReadOptions options);
    Object load(CounterId id, ReadOptions options);
    Object loadVersioned(CounterId id, ReadOptions options);
    Object findVersioned(CounterId id, ReadOptions options);
    Object findAll(List<CounterId> ids, ReadOptions options);
    Object listAll(PageRequest page);
    Object findByNote(String note);
    Object loadByNote(String note);
    Object findByName(String name);
    Object listByName(String name, PageRequest page);
  }

  record Sync(IndexedCounterRepository r) implements Repo {
    public Versioned<Counter> create(List<CounterEvent> e) { return r.create(e); }
    public Versioned<Counter> create(String c, List<CounterEvent> e) { return r.create(c, e); }
    public Versioned<Counter> create(AppendOptions o, List<CounterEvent> e) { return r.create(o, e); }
    public Versioned<Counter> append(CounterId id, long v, List<CounterEvent> e) { return r.append(id, v, e); }
    public Versioned<Counter> append(CounterId id, long v, String c, List<CounterEvent> e) { return r.append(id, v, c, e); }
    public Versioned<Counter> append(CounterId id, long v, AppendOptions o, List<CounterEvent> e) { return r.append(id, v, o, e); }
    public Versioned<Counter> append(Versioned<Counter> l, List<CounterEvent> e) { return r.append(l, e); }
    public Versioned<Counter> transact(CounterId id, Function<Counter, List<CounterEvent>> d) { return r.transact(id, d); }
    public Versioned<Counter> transact(CounterId id, String c, Function<Counter, List<CounterEvent>> d) { return r.transact(id, c, d); }
    public Versioned<Counter> transact(CounterId id, AppendOptions o, Function<Counter, List<CounterEvent>> d) { return r.transact(id, o, d); }
    public Object findById(CounterId id, ReadOptions o) { return r.findById(id, o); }
    public Object load(CounterId id, ReadOptions o) { return r.load(id, o); }
    public Object loadVersioned(CounterId id, ReadOptions o) { return r.loadVersioned(id, o); }
    public Object findVersioned(CounterId id, ReadOptions o) { return r.findVersioned(id, o); }
    public Object findAll(List<CounterId> ids, ReadOptions o) { return r.findAll(ids, o); }
    public Object listAll(PageRequest p) { return r.listAll(p).items().size(); }
    public Object findByNote(String n) { return r.findByNote(n); }
    public Object loadByNote(String n) { return r.loadByNote(n); }
    public Object findByName(String n) { return r.findByName(n); }
    public Object listByName(String n, PageRequest p) { return r.listByName(n, p).items(); }
  }

  static final class Async implements Repo {
    final AsyncCounterRepository r;
    boolean threw;

    Async(AsyncCounterRepository r) { this.r = r; }

    <T> T await(Supplier<CompletableFuture<T>> call) {
      CompletableFuture<T> future;
      try {
        future = call.get();
      } catch (RuntimeException e) {
        threw = true;
        throw e;
      }
      try {
        return future.get(30, TimeUnit.SECONDS);
      } catch (ExecutionException e) {
        if (e.getCause() instanceof RuntimeException runtime) {
          throw runtime;
        }
        throw new AssertionError(e.getCause());
      } catch (Exception e) {
        throw new AssertionError(e);
      }
    }

    public Versioned<Counter> create(List<CounterEvent> e) { return await(() -> r.create(e)); }
    public Versioned<Counter> create(String c, List<CounterEvent> e) { return await(() -> r.create(c, e)); }
    public Versioned<Counter> create(AppendOptions o, List<CounterEvent> e) { return await(() -> r.create(o, e)); }
    public Versioned<Counter> append(CounterId id, long v, List<CounterEvent> e) { return await(() -> r.append(id, v, e)); }
    public Versioned<Counter> append(CounterId id, long v, String c, List<CounterEvent> e) { return await(() -> r.append(id, v, c, e)); }
    public Versioned<Counter> append(CounterId id, long v, AppendOptions o, List<CounterEvent> e) { return await(() -> r.append(id, v, o, e)); }
    public Versioned<Counter> append(Versioned<Counter> l, List<CounterEvent> e) { return await(() -> r.append(l, e)); }
    public Versioned<Counter> transact(CounterId id, Function<Counter, List<CounterEvent>> d) { return await(() -> r.transact(id, d)); }
    public Versioned<Counter> transact(CounterId id, String c, Function<Counter, List<CounterEvent>> d) { return await(() -> r.transact(id, c, d)); }
    public Versioned<Counter> transact(CounterId id, AppendOptions o, Function<Counter, List<CounterEvent>> d) { return await(() -> r.transact(id, o, d)); }
    public Object findById(CounterId id, ReadOptions o) { return await(() -> r.findById(id, o)); }
    public Object load(CounterId id, ReadOptions o) { return await(() -> r.load(id, o)); }
    public Object loadVersioned(CounterId id, ReadOptions o) { return await(() -> r.loadVersioned(id, o)); }
    public Object findVersioned(CounterId id, ReadOptions o) { return await(() -> r.findVersioned(id, o)); }
    public Object findAll(List<CounterId> ids, ReadOptions o) { return await(() -> r.findAll(ids, o)); }
    public Object listAll(PageRequest p) { return await(() -> r.listAll(p)).items().size(); }
    public Object findByNote(String n) { return await(() -> r.findByNote(n)); }
    public Object loadByNote(String n) { return await(() -> r.loadByNote(n)); }
    public Object findByName(String n) { return await(() -> r.findByName(n)); }
    public Object listByName(String n, PageRequest p) { return await(() -> r.listByName(n, p)).items(); }
  }

  /** A fresh counter id and unique note for one side of one scenario, and what its set-up left. */
  static final class Ctx {
    final CounterId id = CounterId.random();
    final String note = "note-" + CounterId.random().value();
    final CounterId other = CounterId.random();
    IndexedCounterRepository competitor;
    Versioned<Counter> v;

    List<CounterEvent> created() {
      return List.of(new CounterCreated(id, "n-" + id.value()));
    }
  }

  interface Step {
    Object run(Repo repo, Ctx ctx);
  }

  record Scenario(String name, Step setup, Consumer<AsyncFaults> faults, Step act) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Scenario of(String name, Step setup, Step act) {
    return new Scenario(name, setup, f -> {}, act);
  }

  static Scenario faulty(String name, Step setup, Consumer<AsyncFaults> faults, Step act) {
    return new Scenario(name, setup, faults, act);
  }

  static final Step CREATED = (r, c) -> c.v = r.create(c.created());
  static final Step NOTHING = (r, c) -> null;
  static final String HUGE = "x".repeat(420_000);
  static final Clock STAMP = Clock.fixed(Instant.parse("2026-11-28T04:00:00.123456Z"), ZoneOffset.UTC);

  static List<Scenario> scenarios() {
    List<Scenario> all = new ArrayList<>();
    all.add(of("create empty", NOTHING, (r, c) -> r.create(List.of())));
    all.add(of("create null list", NOTHING, (r, c) -> r.create((List<CounterEvent>) null)));
    all.add(of("create null event", NOTHING, (r, c) -> r.create(Arrays.asList(c.created().get(0), null))));
    all.add(of("create empty command id", NOTHING, (r, c) -> r.create("", c.created())));
    all.add(of("create null command id", NOTHING, (r, c) -> r.create((String) null, c.created())));
    all.add(of("create null options", NOTHING, (r, c) -> r.create((AppendOptions) null, c.created())));
    all.add(of("create exists", CREATED, (r, c) -> r.create(c.created())));
    all.add(of("create exists, command", CREATED, (r, c) -> r.create("cmd", c.created())));
    all.add(of("create repeated command", (r, c) -> c.v = r.create("cmd", c.created()),
        (r, c) -> r.create("cmd", c.created())));
    all.add(of("create too large", NOTHING,
        (r, c) -> r.create(List.of(c.created().get(0), new Noted(HUGE)))));
    all.add(of("create taken note", (r, c) -> r.create(List.of(new CounterCreated(c.other, "o"),
        new Noted(c.note))), (r, c) -> r.create(List.of(c.created().get(0), new Noted(c.note)))));
    all.add(of("append missing", NOTHING, (r, c) -> r.append(c.id, 1, List.of(new Incremented(1)))));
    all.add(of("append wrong version", CREATED, (r, c) -> r.append(c.id, 7, List.of(new Incremented(1)))));
    all.add(of("append empty", CREATED, (r, c) -> r.append(c.id, 1, List.of())));
    all.add(of("append empty wrong version", CREATED, (r, c) -> r.append(c.id, 2, List.of())));
    all.add(of("append null list", CREATED, (r, c) -> r.append(c.id, 1, (List<CounterEvent>) null)));
    all.add(of("append null event", CREATED, (r, c) -> r.append(c.id, 1, Arrays.asList((CounterEvent) null))));
    all.add(of("append null id", CREATED, (r, c) -> r.append(null, 1, List.of(new Incremented(1)))));
    all.add(of("append bad command id", CREATED, (r, c) -> r.append(c.id, 1, "", List.of(new Incremented(1)))));
    all.add(of("append null options", CREATED,
        (r, c) -> r.append(c.id, 1, (AppendOptions) null, List.of(new Incremented(1)))));
    all.add(of("append null options null events", CREATED,
        (r, c) -> r.append(c.id, 1, (AppendOptions) null, null)));
    all.add(of("append bad command id null events", CREATED,
        (r, c) -> r.append(c.id, 1, AppendOptions.command(""), null)));
    all.add(of("append command missing", NOTHING, (r, c) -> r.append(c.id, 1, "cmd", List.of(new Incremented(1)))));
    all.add(of("append command wrong version", CREATED,
        (r, c) -> r.append(c.id, 3, "cmd", List.of(new Incremented(1)))));
    all.add(of("append repeated command", (r, c) -> c.v = r.append(r.create(c.created()).state().id(), 1, "cmd",
        List.of(new Incremented(1))), (r, c) -> r.append(c.id, 1, "cmd", List.of(new Incremented(1)))));
    all.add(of("append ok", CREATED, (r, c) -> r.append(c.id, 1, List.of(new Incremented(1)))));
    all.add(of("append too large", CREATED, (r, c) -> r.append(c.id, 1, List.of(new Noted(HUGE)))));
    all.add(of("append taken note", (r, c) -> {
      r.create(List.of(new CounterCreated(c.other, "o"), new Noted(c.note)));
      return c.v = r.create(c.created());
    }, (r, c) -> r.append(c.id, 1, List.of(new Noted(c.note)))));
    all.add(of("append versioned null", CREATED, (r, c) -> r.append((Versioned<Counter>) null, List.of())));
    all.add(of("append versioned stale", (r, c) -> {
      c.v = r.create(c.created());
      return r.append(c.id, 1, List.of(new Incremented(1)));
    }, (r, c) -> r.append(c.v, List.of(new Incremented(1)))));
    all.add(of("append versioned by hand", CREATED,
        (r, c) -> r.append(new Versioned<>(c.v.state(), 1, 1), List.of(new Incremented(1)))));
    all.add(of("append versioned by hand null events", CREATED,
        (r, c) -> r.append(new Versioned<>(c.v.state(), 1, 1), null)));
    all.add(of("append versioned null events", CREATED, (r, c) -> r.append(c.v, null)));
    all.add(of("transact missing", NOTHING, (r, c) -> r.transact(c.id, s -> s.increment("t"))));
    all.add(of("transact ok", CREATED, (r, c) -> r.transact(c.id, s -> s.increment("t"))));
    all.add(of("transact null decide", CREATED, (r, c) -> r.transact(c.id, null)));
    all.add(of("transact null id", CREATED, (r, c) -> r.transact(null, s -> s.increment("t"))));
    all.add(of("transact decides null", CREATED, (r, c) -> r.transact(c.id, s -> null)));
    all.add(of("transact decides null event", CREATED, (r, c) -> r.transact(c.id, s -> Arrays.asList((CounterEvent) null))));
    all.add(of("transact decide throws", CREATED, (r, c) -> r.transact(c.id, s -> {
      throw new IllegalStateException("refused");
    })));
    all.add(of("transact decides nothing", CREATED, (r, c) -> r.transact(c.id, s -> List.of())));
    all.add(of("transact bad command id", CREATED, (r, c) -> r.transact(c.id, "", s -> s.increment("t"))));
    all.add(of("transact null command id", CREATED, (r, c) -> r.transact(c.id, (String) null, s -> s.increment("t"))));
    all.add(of("transact bad command id null decide", CREATED, (r, c) -> r.transact(c.id, "", null)));
    all.add(of("transact null options", CREATED, (r, c) -> r.transact(c.id, (AppendOptions) null, s -> s.increment("t"))));
    all.add(of("transact repeated command", (r, c) -> c.v = r.transact(r.create(c.created()).state().id(), "cmd",
        s -> s.increment("t")), (r, c) -> r.transact(c.id, "cmd", s -> s.increment("t"))));
    all.add(of("transact too large", CREATED, (r, c) -> r.transact(c.id, s -> List.of(new Noted(HUGE)))));
    all.add(of("transact taken note", (r, c) -> {
      r.create(List.of(new CounterCreated(c.other, "o"), new Noted(c.note)));
      return c.v = r.create(c.created());
    }, (r, c) -> r.transact(c.id, s -> List.of(new Noted(c.note)))));
    all.add(of("load missing", NOTHING, (r, c) -> r.load(c.id, ReadOptions.defaults())));
    all.add(of("load null options", CREATED, (r, c) -> r.load(c.id, null)));
    all.add(of("load null id", NOTHING, (r, c) -> r.load(null, ReadOptions.defaults())));
    all.add(of("load", CREATED, (r, c) -> r.load(c.id, ReadOptions.defaults())));
    all.add(of("load eventual", CREATED, (r, c) -> r.load(c.id, ReadOptions.eventual())));
    all.add(of("findById missing", NOTHING, (r, c) -> r.findById(c.id, ReadOptions.defaults())));
    all.add(of("findById null id", NOTHING, (r, c) -> r.findById(null, ReadOptions.defaults())));
    all.add(of("loadVersioned missing", NOTHING, (r, c) -> r.loadVersioned(c.id, ReadOptions.defaults())));
    all.add(of("findVersioned", CREATED, (r, c) -> r.findVersioned(c.id, ReadOptions.defaults())));
    all.add(of("findAll null", NOTHING, (r, c) -> r.findAll(null, ReadOptions.defaults())));
    all.add(of("findAll null id", NOTHING, (r, c) -> r.findAll(Arrays.asList(c.id, null), ReadOptions.defaults())));
    all.add(of("findAll null options", NOTHING, (r, c) -> r.findAll(List.of(c.id), null)));
    all.add(of("findAll", CREATED, (r, c) -> r.findAll(List.of(c.id, CounterId.random()), ReadOptions.defaults())));
    all.add(of("listAll null", NOTHING, (r, c) -> r.listAll(null)));
    all.add(of("findByNote null", NOTHING, (r, c) -> r.findByNote(null)));
    all.add(of("findByNote missing", NOTHING, (r, c) -> r.findByNote(c.note)));
    all.add(of("findByNote too long", NOTHING, (r, c) -> r.findByNote("y".repeat(2000))));
    all.add(of("loadByNote missing", NOTHING, (r, c) -> r.loadByNote(c.note)));
    all.add(of("loadByNote null", NOTHING, (r, c) -> r.loadByNote(null)));
    all.add(of("findByNote", (r, c) -> c.v = r.create(List.of(c.created().get(0), new Noted(c.note))),
        (r, c) -> r.findByNote(c.note)));
    all.add(of("findByName null", NOTHING, (r, c) -> r.findByName(null)));
    all.add(of("findByName missing", NOTHING, (r, c) -> r.findByName("nobody-" + c.id.value())));
    all.add(of("findByName too long", NOTHING, (r, c) -> r.findByName("y".repeat(2000))));
    all.add(of("listByName null", NOTHING, (r, c) -> r.listByName(null, PageRequest.first(10))));
    all.add(of("listByName null page", NOTHING, (r, c) -> r.listByName("x", null)));
    all.add(of("listByName missing", NOTHING, (r, c) -> r.listByName("nobody-" + c.id.value(), PageRequest.first(10))));
    // Faults and races
    all.add(faulty("transact throttled out", CREATED, f -> {
      f.always(TransactWriteItemsRequest.class, AsyncFaults.Fault.THROTTLED);
      f.always(UpdateItemRequest.class, AsyncFaults.Fault.THROTTLED);
    }, (r, c) -> r.transact(c.id, s -> s.increment("t"))));
    all.add(faulty("append server errors", CREATED, f -> {
      f.always(TransactWriteItemsRequest.class, AsyncFaults.Fault.SERVER_ERROR);
      f.always(UpdateItemRequest.class, AsyncFaults.Fault.SERVER_ERROR);
    }, (r, c) -> r.append(c.id, 1, List.of(new Incremented(1)))));
    all.add(faulty("append server errors, read-back fails", CREATED, f -> {
      f.always(TransactWriteItemsRequest.class, AsyncFaults.Fault.SERVER_ERROR);
      f.always(UpdateItemRequest.class, AsyncFaults.Fault.SERVER_ERROR);
      f.enqueue(GetItemRequest.class, AsyncFaults.Fault.NONE);
      f.always(GetItemRequest.class, AsyncFaults.Fault.SERVER_ERROR);
    }, (r, c) -> r.append(c.id, 1, List.of(new Incremented(1)))));
    all.add(faulty("create lost response", NOTHING, f -> {
      f.enqueue(TransactWriteItemsRequest.class, AsyncFaults.Fault.LOST_RESPONSE);
      f.enqueue(PutItemRequest.class, AsyncFaults.Fault.LOST_RESPONSE);
    }, (r, c) -> r.create(c.created())));
    all.add(faulty("append lost response", CREATED, f -> {
      f.enqueue(TransactWriteItemsRequest.class, AsyncFaults.Fault.LOST_RESPONSE);
      f.enqueue(UpdateItemRequest.class, AsyncFaults.Fault.LOST_RESPONSE);
    }, (r, c) -> r.append(c.id, 1, List.of(new Incremented(1)))));
    all.add(faulty("load throttled out", CREATED, f -> f.always(GetItemRequest.class, AsyncFaults.Fault.THROTTLED),
        (r, c) -> r.load(c.id, ReadOptions.defaults())));
    all.add(faulty("findAll throttled out", CREATED,
        f -> f.always(BatchGetItemRequest.class, AsyncFaults.Fault.THROTTLED),
        (r, c) -> r.findAll(List.of(c.id), ReadOptions.defaults())));
    all.add(faulty("findByName throttled out", CREATED, f -> f.always(QueryRequest.class, AsyncFaults.Fault.THROTTLED),
        (r, c) -> r.findByName("n-" + c.id.value())));
    all.add(faulty("findByNote server errors", CREATED, f -> f.always(GetItemRequest.class, AsyncFaults.Fault.SERVER_ERROR),
        (r, c) -> r.findByNote(c.note)));
    all.add(faulty("transact read throttled once", CREATED, f -> f.enqueue(GetItemRequest.class, AsyncFaults.Fault.THROTTLED),
        (r, c) -> r.transact(c.id, s -> s.increment("t"))));
    all.add(of("transact conflicts out", CREATED, (r, c) -> r.transact(c.id, s -> {
      c.competitor.transact(c.id, t -> t.increment("rival"));
      return s.increment("t");
    })));
    all.add(of("transact conflicts once", CREATED, (r, c) -> r.transact(c.id, s -> {
      if (s.value() == 0) {
        c.competitor.transact(c.id, t -> t.increment("rival"));
      }
      return s.increment("t");
    })));
    all.add(of("transact command applied meanwhile", CREATED, (r, c) -> r.transact(c.id, "cmd", s -> {
      c.competitor.transact(c.id, "cmd", t -> t.increment("rival"));
      return s.increment("t");
    })));
    all.add(of("append command applied meanwhile", CREATED, (r, c) -> {
      c.competitor.append(c.id, 1, "cmd", List.of(new Incremented(5)));
      return r.append(c.id, 1, "cmd", List.of(new Incremented(1)));
    }));
    all.add(of("append stale cache", (r, c) -> {
      c.v = r.create(c.created());
      return c.competitor.append(c.id, 1, List.of(new Incremented(1)));
    }, (r, c) -> r.append(c.id, 1, List.of(new Incremented(1)))));
    all.add(of("append stale cache, command", (r, c) -> {
      c.v = r.create(c.created());
      return c.competitor.append(c.id, 1, List.of(new Incremented(1)));
    }, (r, c) -> r.append(c.id, 1, "cmd", List.of(new Incremented(1)))));
    all.add(of("transact stale cache decides nothing", (r, c) -> {
      c.v = r.create(c.created());
      return c.competitor.append(c.id, 1, List.of(new Incremented(1)));
    }, (r, c) -> r.transact(c.id, s -> List.of())));
    all.add(of("transact stale cache decide throws", (r, c) -> {
      c.v = r.create(c.created());
      return c.competitor.append(c.id, 1, List.of(new Incremented(1)));
    }, (r, c) -> r.transact(c.id, s -> {
      throw new IllegalStateException("refused at " + s.value());
    })));
    all.add(of("append versioned stale, command", (r, c) -> {
      c.v = r.create(c.created());
      return c.competitor.append(c.id, 1, List.of(new Incremented(1)));
    }, (r, c) -> r.append(c.v, List.of(new Incremented(1)))));
    return all;
  }

  static List<Arguments> cases() {
    List<Arguments> cases = new ArrayList<>();
    for (LayoutKind layout : List.of(LayoutKind.JOURNAL, LayoutKind.TIP)) {
      for (boolean cache : List.of(false, true)) {
        for (Scenario scenario : scenarios()) {
          cases.add(Arguments.of(layout, cache, scenario));
        }
      }
    }
    return cases;
  }

  record Outcome(String value, String failure, boolean threwAtCall, List<String> heard, List<String> failed,
      List<String> sent, String cached) {}

  @ParameterizedTest(name = "{0} cache={1}: {2}")
  @MethodSource("cases")
  void sameOutcome(LayoutKind layout, boolean cache, Scenario scenario) {
    // One instant for both sides: an event's occurred_at is Instant.toString(), whose fraction is 0, 3, 6 or 9
    // digits long, so with the system clock an item's size (which "too large" messages give) varied by a
    // few bytes between the two runs, once in about a thousand.
    StoreConfig config = AsyncStoreFixture.attempts(3, 5).withClock(STAMP);
    if (cache) {
      config = config.withStateCache(StateCachePolicy.of(1000, Duration.ofMinutes(5)));
    }
    AsyncFaults syncFaults = new AsyncFaults();
    RecordingListener syncHeard = new RecordingListener();
    DynamoDbClient syncClient = TestDynamo.clientWith(syncFaults);
    DynamoDbEventStore syncStore = DynamoDbEventStore.create(syncClient, config.withListener(syncHeard));
    IndexedCounterRepository syncRepo = new IndexedCounterRepository(syncStore, layout, 0);
    AsyncEventStore asyncStore = async.store(config);
    AsyncCounterRepository asyncRepo = new AsyncCounterRepository(asyncStore, layout, 0);
    try {
      Outcome sync = run(scenario, new Sync(syncRepo), syncFaults, syncHeard, TestDynamo.internals(syncStore).stateCache(),
          syncRepo.definition(), null);
      Outcome asynchronous = run(scenario, new Async(asyncRepo), async.faults(), null,
          StoreAccess.internals(asyncStore).orElseThrow().stateCache(), asyncRepo.definition(), async);
      assertEquals(sync, asynchronous);
    } finally {
      syncClient.close();
    }
  }

  private Outcome run(Scenario scenario, Repo repo, AsyncFaults faults, RecordingListener syncHeard, StateCache cache,
      AggregateDefinition<Counter, CounterId, CounterEvent> definition, AsyncStoreFixture fixture) {
    Ctx ctx = new Ctx();
    ctx.competitor = new IndexedCounterRepository(TestDynamo.store(), definition.layout(), 0);
    scenario.setup().run(repo, ctx);
    faults.clear();
    List<OperationMetrics> operations = syncHeard != null ? syncHeard.operations() : fixture.operations();
    List<FailedAttempt> failedAttempts = syncHeard != null ? syncHeard.failedAttempts() : fixture.failedAttempts();
    operations.clear();
    failedAttempts.clear();
    scenario.faults().accept(faults);
    String value = null;
    String failure = null;
    try {
      value = String.valueOf(scenario.act().run(repo, ctx));
    } catch (RuntimeException e) {
      failure = e.getClass().getName() + ": " + e.getMessage();
    }
    List<String> sent = faults.started().stream().map(AsyncFaults.Started::operation).toList();
    faults.clear();
    boolean threw = repo instanceof Async a && a.threw;
    List<String> heard = new ArrayList<>();
    for (OperationMetrics m : operations) {
      heard.add(m.operation() + " requests=" + m.requests() + " attempts=" + m.attempts() + " conflicts="
          + m.conflicts() + " transient=" + m.transientFailures() + " unknown=" + m.unknownOutcomes() + " failure="
          + m.failure().map(f -> f.getClass().getSimpleName() + ": " + f.getMessage()).orElse("-"));
    }
    List<String> failed = new ArrayList<>();
    for (FailedAttempt f : failedAttempts) {
      failed.add(f.operation() + " " + f.attempt() + " " + f.kind() + " " + f.errorCode() + " " + f.retryAfter().isPresent());
    }
    String cached = cache.find(definition, ctx.id.value()).map(s -> "v" + s.version() + " " + s.state()).orElse("none");
    Outcome outcome = new Outcome(value, failure, threw, heard, failed, sent, cached);
    return normalize(outcome, ctx);
  }

  private static Outcome normalize(Outcome o, Ctx ctx) {
    Function<String, String> n = s -> s == null ? null : s.replace(ctx.id.value(), "<id>").replace(ctx.note, "<note>").replace(ctx.other.value(), "<other>")
        .replaceAll("[A-Za-z0-9_-]{22}", "<append-id>").replaceAll("@[0-9a-f]+", "@x");
    return new Outcome(n.apply(o.value()), n.apply(o.failure()), o.threwAtCall(),
        o.heard().stream().map(n).toList(), o.failed().stream().map(n).toList(), o.sent(), n.apply(o.cached()));
  }
}
