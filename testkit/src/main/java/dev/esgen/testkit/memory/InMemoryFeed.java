package dev.esgen.testkit.memory;

import dev.esgen.runtime.aggregate.AggregateDefinition;
import dev.esgen.runtime.config.RetryPolicy;
import dev.esgen.runtime.error.EventDecodingException;
import dev.esgen.runtime.error.ProjectionFailedException;
import dev.esgen.runtime.feed.ChangeFeed;
import dev.esgen.runtime.feed.DeliveryFailure;
import dev.esgen.runtime.feed.FeedListener;
import dev.esgen.runtime.feed.Projection;
import dev.esgen.runtime.history.RecordedEvent;
import dev.esgen.runtime.internal.feed.FeedReporter;
import dev.esgen.runtime.internal.feed.ProjectionNames;
import dev.esgen.runtime.internal.storage.EventPage;
import dev.esgen.testkit.memory.StoredData.StreamType;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The change feed of an {@link InMemoryEventStore}, for service tests: delivers every append to the
 * registered projections as {@link ChangeFeed} does on DynamoDB, so that a test of a service sees its read
 * models move. The same {@link Projection} a service registers with {@code ChangeFeed.builder(store)} is
 * registered here unchanged.
 *
 * <p>What it keeps of the change feed's guarantees: each stream's events in seq_nr order, none skipped, none
 * repeated while the handler succeeds (a per-stream position, kept in memory); the events a store held before
 * the feed started are delivered too, as {@link ChangeFeed#replay} would; a handler that throws stops its
 * stream at that event, which is tried again after the {@link RetryPolicy}'s pauses and reported to the
 * {@link FeedListener} each time, while other streams go on; when the policy is spent the stream is given up
 * and {@link #awaitCaughtUp} throws {@link ProjectionFailedException}, until a new event of the stream
 * makes the feed try it again (also one appended while the last attempt was failing). Events an upcaster
 * splits share their seq_nr and are all delivered before the position moves past it.
 *
 * <p>Delivery runs on one thread of the feed's own, as the real feed runs apart from the writers: a test
 * calls {@link #awaitCaughtUp} after its appends and before looking at its read models. The feed holds no
 * {@code TransactionalProjection}: its writes are DynamoDB requests, which need DynamoDB Local.
 *
 * <pre>{@code
 * InMemoryEventStore store = InMemoryEventStore.create();
 * BankAccountRepository accounts = new BankAccountRepository(store);
 * Statements statements = new Statements();
 * try (InMemoryFeed feed = InMemoryFeed.builder(store)
 *     .projection("statements", accounts.definition(), statements::apply)
 *     .start()) {
 *   service.deposit(id, 500);
 *   feed.awaitCaughtUp(Duration.ofSeconds(5));
 *   assertEquals(500, statements.balanceOf(id));
 * }
 * }</pre>
 */
public final class InMemoryFeed implements AutoCloseable {

  /**
   * Handler retries by default: 3 attempts, pauses from 10 ms doubling up to 100 ms, 5 s in all; shorter
   * than {@link ChangeFeed#DEFAULT_RETRY_POLICY}, so that a test of a failing projection stays quick.
   */
  public static final RetryPolicy DEFAULT_RETRY_POLICY =
      new RetryPolicy(3, Duration.ofMillis(10), Duration.ofMillis(100), Duration.ofSeconds(5));

  /** How many events one read of a stream takes, as a gap read of the change feed does. */
  private static final int PAGE = 100;

  /** One projection's handler of one aggregate type. */
  private record Subscription<A, I, E>(String projection, AggregateDefinition<A, I, E> definition,
      Projection<E> handler) {

    StreamType streamType() {
      return new StreamType(definition.layout(), definition.name());
    }
  }

  /** One projection's stream: what the feed keeps a position for and delivers. */
  private record StreamKey(Subscription<?, ?, ?> subscription, String aid) {}

  /** A stream that failed: when to try it next, how often it failed, and when it failed first. */
  private record Retry(long dueNanos, int attempts, long firstFailureNanos) {}

  private final InMemoryEventStore store;
  private final List<Subscription<?, ?, ?>> subscriptions;
  private final RetryPolicy policy;
  private final FeedReporter reporter;
  private final AppendWatcher watcher = this::appended;
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition changed = lock.newCondition();
  private final Map<StreamKey, Long> positions = new HashMap<>();
  private final LinkedHashMap<StreamKey, Boolean> pending = new LinkedHashMap<>();
  private final Map<StreamKey, Retry> retries = new HashMap<>();
  private final Map<StreamKey, ProjectionFailedException> givenUp = new LinkedHashMap<>();
  private final Thread thread;
  private StreamKey delivering;
  private boolean appendedWhileDelivering;
  private boolean closed;

  private InMemoryFeed(Builder builder) {
    this.store = builder.store;
    this.subscriptions = List.copyOf(builder.subscriptions);
    this.policy = builder.retryPolicy;
    this.reporter = new FeedReporter(builder.listener);
    this.thread = new Thread(this::run, "esgen-memory-feed");
    thread.setDaemon(true);
  }

  /** Starts a feed of {@code store}'s appends; register at least one projection, then {@link Builder#start}. */
  public static Builder builder(InMemoryEventStore store) {
    return new Builder(store);
  }

  /**
   * Waits until every projection has taken every event stored so far (by appends that returned before this
   * call, and any stored while it waits): returns at the first moment nothing is left to deliver.
   *
   * @throws ProjectionFailedException when a stream was given up (the first one; the others suppressed in
   *     it), its cause what the handler threw last
   * @throws TimeoutException when the projections have not caught up within {@code timeout}, naming how many
   *     streams still wait
   * @throws InterruptedException when the waiting thread is interrupted
   */
  public void awaitCaughtUp(Duration timeout) throws TimeoutException, InterruptedException {
    // Measured from the start rather than against a deadline, and capped at about 292 years, so that no
    // timeout overflows the nanoseconds.
    long timeoutNanos = timeout.isNegative() ? 0
        : timeout.compareTo(Duration.ofNanos(Long.MAX_VALUE)) >= 0 ? Long.MAX_VALUE : timeout.toNanos();
    long start = System.nanoTime();
    lock.lock();
    try {
      while (true) {
        if (!givenUp.isEmpty()) {
          throw failure();
        }
        if (pending.isEmpty() && retries.isEmpty() && delivering == null) {
          return;
        }
        if (closed) {
          throw new IllegalStateException("the in-memory feed is closed with events left to deliver");
        }
        long left = timeoutNanos - (System.nanoTime() - start);
        if (left <= 0) {
          throw new TimeoutException("the projections did not catch up within " + timeout + ": "
              + (pending.size() + retries.size() + (delivering == null ? 0 : 1)) + " streams still wait");
        }
        changed.awaitNanos(left);
      }
    } finally {
      lock.unlock();
    }
  }

  /**
   * The seq_nr of the last event of the stream {@code id} that {@code projection} took; 0 when none, as
   * {@link ChangeFeed#position} says it.
   *
   * @throws IllegalArgumentException when {@code projection} does not follow {@code definition}'s type
   */
  public <I> long position(String projection, AggregateDefinition<?, I, ?> definition, I id) {
    Subscription<?, ?, ?> subscription = subscriptions.stream()
        .filter(s -> s.projection().equals(projection) && s.definition().name().equals(definition.name()))
        .findFirst()
        .orElseThrow(() -> new IllegalArgumentException(
            "projection '" + projection + "' does not follow " + definition.name() + " in this feed"));
    lock.lock();
    try {
      return positions.getOrDefault(new StreamKey(subscription, definition.keys().idString(id)), 0L);
    } finally {
      lock.unlock();
    }
  }

  /** Stops delivering: the feed hears of no more appends, and its thread ends after the event it delivers. */
  @Override
  public void close() {
    synchronized (store.data()) {
      store.data().unwatch(watcher);
    }
    lock.lock();
    try {
      closed = true;
      changed.signalAll();
    } finally {
      lock.unlock();
    }
    try {
      thread.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void start() {
    StoredData data = store.data();
    synchronized (data) {
      for (Subscription<?, ?, ?> subscription : subscriptions) {
        for (StoredStream stream : data.streams(subscription.streamType())) {
          pending.put(new StreamKey(subscription, stream.aid()), Boolean.TRUE);
        }
      }
      data.watch(watcher);
    }
    thread.start();
  }

  /** Called under the store's data monitor: notes the stream for each projection following its type. */
  private void appended(StreamType type, String aid) {
    lock.lock();
    try {
      for (Subscription<?, ?, ?> subscription : subscriptions) {
        if (subscription.streamType().equals(type)) {
          StreamKey key = new StreamKey(subscription, aid);
          givenUp.remove(key);
          if (key.equals(delivering)) {
            appendedWhileDelivering = true;
          }
          if (!retries.containsKey(key)) {
            pending.put(key, Boolean.TRUE);
          }
        }
      }
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }

  private void run() {
    while (true) {
      StreamKey key;
      long position;
      lock.lock();
      try {
        key = next();
        if (key == null) {
          return;
        }
        delivering = key;
        appendedWhileDelivering = false;
        position = positions.getOrDefault(key, 0L);
      } finally {
        lock.unlock();
      }
      Exception failure = null;
      long stuckAt = position + 1;
      String stuckType = null;
      Delivery<?, ?, ?> delivery = new Delivery<>(key, position);
      try {
        delivery.deliver();
      } catch (Exception e) {
        failure = e;
        stuckAt = delivery.position + 1;
        stuckType = delivery.type;
      }
      lock.lock();
      try {
        positions.put(key, delivery.position);
        delivering = null;
        if (failure != null) {
          failed(key, stuckAt, stuckType, failure);
          if (appendedWhileDelivering && givenUp.remove(key) != null) {
            // An append during the last attempt brings a new event of the stream, as one just after it would:
            // the stream is tried again rather than given up.
            pending.put(key, Boolean.TRUE);
          }
        } else if (retries.remove(key) != null) {
          // Appends to a stream waiting for its retry were not noted apart: look for them now.
          pending.put(key, Boolean.TRUE);
        }
        changed.signalAll();
      } finally {
        lock.unlock();
      }
    }
  }

  /**
   * The next stream to deliver, waiting for one: a pending stream, or a failed one whose pause is over.
   * Null once the feed is closed. Called holding the lock.
   */
  private StreamKey next() {
    while (!closed) {
      if (!pending.isEmpty()) {
        StreamKey key = pending.keySet().iterator().next();
        pending.remove(key);
        return key;
      }
      long now = System.nanoTime();
      long wait = Long.MAX_VALUE;
      for (Map.Entry<StreamKey, Retry> retry : retries.entrySet()) {
        long due = retry.getValue().dueNanos() - now;
        if (due <= 0) {
          return retry.getKey();
        }
        wait = Math.min(wait, due);
      }
      try {
        if (wait == Long.MAX_VALUE) {
          changed.await();
        } else {
          changed.awaitNanos(wait);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return null;
      }
    }
    return null;
  }

  /** Schedules another try of {@code key}, or gives it up, and reports the failure. Called holding the lock. */
  private void failed(StreamKey key, long seqNr, String eventType, Exception failure) {
    Retry before = retries.remove(key);
    long now = System.nanoTime();
    int attempt = before == null ? 1 : before.attempts() + 1;
    long first = before == null ? now : before.firstFailureNanos();
    Duration pause = policy.delayAfter(attempt, ThreadLocalRandom.current());
    boolean again = attempt < policy.maxAttempts()
        && now + pause.toNanos() - first < policy.deadline().toNanos();
    Subscription<?, ?, ?> subscription = key.subscription();
    reporter.deliveryFailed(new DeliveryFailure(subscription.projection(), subscription.definition().name(),
        key.aid(), seqNr, attempt, again ? Optional.of(pause) : Optional.empty(), failure));
    if (again) {
      retries.put(key, new Retry(now + pause.toNanos(), attempt, first));
    } else {
      givenUp.put(key, new ProjectionFailedException(subscription.projection(), subscription.definition().name(),
          key.aid(), seqNr, eventType, attempt, failure));
    }
    pending.remove(key);
  }

  private ProjectionFailedException failure() {
    ProjectionFailedException first = null;
    for (ProjectionFailedException failure : givenUp.values()) {
      if (first == null) {
        first = failure;
      } else {
        first.addSuppressed(failure);
      }
    }
    return first;
  }

  /** One delivery of a stream to a projection: the events after its position, page by page, in order. */
  private final class Delivery<A, I, E> {
    private final Subscription<A, I, E> subscription;
    private final String aid;
    private long position;
    private String type;

    @SuppressWarnings("unchecked")
    Delivery(StreamKey key, long position) {
      this.subscription = (Subscription<A, I, E>) key.subscription();
      this.aid = key.aid();
      this.position = position;
    }

    void deliver() throws Exception {
      while (true) {
        long from = position + 1;
        long to = position + PAGE;
        type = null;
        Optional<EventPage<E>> read;
        try {
          read = read(from, to);
        } catch (EventDecodingException unreadable) {
          if (unreadable.seqNr() > from && unreadable.seqNr() <= to) {
            // The events before the one that does not read are handed over, so that the stream stops at that
            // one, as the change feed's does.
            take(read(from, unreadable.seqNr() - 1).orElseThrow(), unreadable.seqNr() - 1);
          }
          type = unreadable.eventType();
          throw unreadable;
        }
        if (read.isEmpty() || read.get().lastSeqNr() < from) {
          return;
        }
        take(read.get(), Math.min(to, read.get().lastSeqNr()));
      }
    }

    private Optional<EventPage<E>> read(long from, long to) {
      AggregateDefinition<A, I, E> definition = subscription.definition();
      return store.layoutFor(definition).readEvents(definition, definition.keys().parseId(aid), from, to);
    }

    /** Hands over the events of {@code page}, whose stored events run up to {@code last}. */
    private void take(EventPage<E> page, long last) throws Exception {
      List<RecordedEvent<E>> events = page.events();
      for (int i = 0; i < events.size(); ) {
        long seqNr = events.get(i).seqNr();
        // Stored events an upcaster dropped leave their seq_nrs without events: the position passes them, so
        // that a failure of the next event names that event, as the change feed's position does.
        position = seqNr - 1;
        for (; i < events.size() && events.get(i).seqNr() == seqNr; i++) {
          type = events.get(i).eventType();
          subscription.handler().handle(events.get(i));
        }
        position = seqNr;
      }
      position = last;
    }
  }

  /**
   * Registers the projections of an {@link InMemoryFeed}, as {@link ChangeFeed.Builder} does; a projection
   * following several aggregate types is registered once per type under the same name.
   *
   * <pre>{@code
   * InMemoryFeed feed = InMemoryFeed.builder(store)
   *     .projection("activity", accounts.definition(), activity::record)
   *     .projection("activity", transfers.definition(), activity::record)
   *     .retryPolicy(RetryPolicy.noRetries())
   *     .start();
   * }</pre>
   */
  public static final class Builder {

    private final InMemoryEventStore store;
    private final List<Subscription<?, ?, ?>> subscriptions = new ArrayList<>();
    private RetryPolicy retryPolicy = DEFAULT_RETRY_POLICY;
    private FeedListener listener = FeedListener.NONE;

    private Builder(InMemoryEventStore store) {
      this.store = Objects.requireNonNull(store, "store");
    }

    /**
     * {@code projection}, named {@code name}, takes the events of {@code definition}'s aggregate type.
     *
     * @param name as {@code ChangeFeed} takes it: 1 to 128 letters, digits, {@code .}, {@code _} or {@code -},
     *     starting with a letter or digit
     * @throws IllegalArgumentException when {@code name} is not such a name, or already follows this
     *     aggregate type
     */
    public <E> Builder projection(String name, AggregateDefinition<?, ?, E> definition, Projection<E> projection) {
      ProjectionNames.checked(name);
      Objects.requireNonNull(definition, "definition");
      Objects.requireNonNull(projection, "projection");
      if (subscriptions.stream().anyMatch(s -> s.projection().equals(name)
          && s.definition().name().equals(definition.name()))) {
        throw new IllegalArgumentException("projection '" + name + "' already follows " + definition.name()
            + "; register one handler per aggregate type");
      }
      subscriptions.add(new Subscription<>(name, definition, projection));
      return this;
    }

    /** How often and how long a failing event is tried before its stream is given up; {@link #DEFAULT_RETRY_POLICY} by default. */
    public Builder retryPolicy(RetryPolicy policy) {
      this.retryPolicy = Objects.requireNonNull(policy, "policy");
      return this;
    }

    /** Hears about every failed delivery; {@link FeedListener#NONE} by default. */
    public Builder listener(FeedListener listener) {
      this.listener = Objects.requireNonNull(listener, "listener");
      return this;
    }

    /**
     * Starts delivering: first the events the store holds, then every append.
     *
     * @throws IllegalStateException when no projection was registered
     */
    public InMemoryFeed start() {
      if (subscriptions.isEmpty()) {
        throw new IllegalStateException("an in-memory feed needs at least one projection");
      }
      InMemoryFeed feed = new InMemoryFeed(this);
      feed.start();
      return feed;
    }
  }
}
