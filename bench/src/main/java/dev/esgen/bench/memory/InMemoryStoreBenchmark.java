package dev.esgen.bench.memory;

import dev.esgen.bench.Settings;
import dev.esgen.bench.domain.Cart;
import dev.esgen.bench.domain.CartEvent;
import dev.esgen.bench.domain.CartId;
import dev.esgen.bench.domain.CartOpened;
import dev.esgen.bench.domain.CartRepository;
import dev.esgen.bench.domain.CartVariants;
import dev.esgen.bench.domain.ItemAdded;
import dev.esgen.bench.domain.SnapshotIntervalRepository;
import dev.esgen.runtime.EventStore;
import dev.esgen.runtime.aggregate.SnapshotPolicy;
import dev.esgen.runtime.repository.EventSourcedRepository;
import dev.esgen.runtime.repository.Versioned;
import dev.esgen.testkit.memory.InMemoryEventStore;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.UnaryOperator;

/**
 * Appends through the generated cart repository to esgen-testkit's {@link InMemoryEventStore}, on one
 * thread: what a service test pays per write. Every append encodes its event with the generated codec and
 * checks DynamoDB's limits and the version under the store's lock; snapshots are written when due. Each
 * round starts with a fresh store, and a fresh cart every {@value #CART_LENGTH} appends (its creation
 * counted), so that no stream grows without end.
 *
 * <p>A plain harness rather than JMH, because it reports the appending thread's CPU time beside the wall
 * time: on a machine other work shares, wall time measures the other work too, CPU time only this one.
 */
public final class InMemoryStoreBenchmark {

  /** Appends to one cart before the next cart is opened. */
  public static final int CART_LENGTH = 100;

  private static final List<CartEvent> ONE_ITEM = List.of(new ItemAdded("SKU-100001", 1, 1_999));

  private final Settings settings;

  public InMemoryStoreBenchmark(Settings settings) {
    this.settings = settings;
  }

  /**
   * What one operation achieved over the measured rounds.
   *
   * @param operation what each append was
   * @param appends appends measured
   * @param cpu the appending thread's CPU time for them
   * @param wall the wall time they took
   */
  public record Result(String operation, long appends, Duration cpu, Duration wall) {

    /** Appends per second of the appending thread's CPU time. */
    public double perCpuSecond() {
      return appends / (cpu.toNanos() / 1e9);
    }

    /** Appends per second of wall time. */
    public double perWallSecond() {
      return appends / (wall.toNanos() / 1e9);
    }
  }

  /** The operations measured, each building its repository on a fresh store. */
  private enum Operation {
    APPEND_JOURNAL("`append(loaded, 1 event)`, journal layout", CartRepository::new, false),
    APPEND_TIP("`append(loaded, 1 event)`, tip layout (snapshot in every append)",
        store -> new CartVariants.Repository(store, CartVariants.tip(CartRepository.definition(store.objectMapper()))),
        false),
    TRANSACT_JOURNAL("`transact`: load (snapshot every 20 events), decide, append; journal layout",
        store -> new SnapshotIntervalRepository(store, SnapshotPolicy.every(20)), true);

    private final String label;
    private final Function<EventStore, EventSourcedRepository<Cart, CartId, CartEvent>> repository;
    private final boolean transact;

    Operation(String label, Function<EventStore, EventSourcedRepository<Cart, CartId, CartEvent>> repository,
        boolean transact) {
      this.label = label;
      this.repository = repository;
      this.transact = transact;
    }
  }

  public List<Result> run() {
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    List<Result> results = new ArrayList<>();
    for (Operation operation : Operation.values()) {
      settings.progress().printf("  in-memory store: %s%n", operation.label);
      appendRound(operation, settings.memoryAppendsPerRound());
      long appends = 0;
      long cpu = 0;
      long wall = 0;
      for (int round = 0; round < settings.memoryRounds(); round++) {
        long cpuStart = threads.getCurrentThreadCpuTime();
        long wallStart = System.nanoTime();
        appends += appendRound(operation, settings.memoryAppendsPerRound());
        wall += System.nanoTime() - wallStart;
        cpu += threads.getCurrentThreadCpuTime() - cpuStart;
      }
      results.add(new Result(operation.label, appends, Duration.ofNanos(cpu), Duration.ofNanos(wall)));
    }
    return results;
  }

  /** {@code count} appends of {@code operation} on a fresh store. */
  private static long appendRound(Operation operation, int count) {
    EventSourcedRepository<Cart, CartId, CartEvent> carts = operation.repository.apply(InMemoryEventStore.create());
    UnaryOperator<Versioned<Cart>> append = operation.transact
        ? cart -> carts.transact(cart.state().id(), state -> state.add("SKU-100001", 1, 1_999))
        : cart -> carts.append(cart, ONE_ITEM);
    Versioned<Cart> cart = null;
    for (int i = 0; i < count; i++) {
      if (i % CART_LENGTH == 0) {
        CartId id = CartId.random();
        cart = carts.create(CartOpened.of(id, "owner-" + id.value()));
      }
      cart = append.apply(cart);
    }
    return count;
  }
}
