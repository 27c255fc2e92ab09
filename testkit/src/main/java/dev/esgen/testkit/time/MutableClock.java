package dev.esgen.testkit.time;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A clock that stands still until a test moves it: hand it to a store (as {@code StoreConfig.withClock})
 * and to the services under test, and every event's recorded-at time, every timestamp a service takes,
 * is the instant the test chose.
 *
 * <pre>{@code
 * MutableClock clock = MutableClock.at(Instant.parse("2026-01-01T09:00:00Z"));
 * EventStore store = InMemoryEventStore.create(StoreConfig.defaults().withClock(clock));
 * accounts.create(BankAccount.opening(id, "Ann", "ann@example.com", clock.instant()));
 * clock.advance(Duration.ofDays(30));
 * accounts.transact(id, account -> account.deposit(500, "salary"));   // recorded 30 days later
 * }</pre>
 *
 * <p>Thread-safe: a reading sees the latest {@link #set} or {@link #advance} of any thread. Clocks made
 * with {@link #withZone} share the instant with this one.
 */
public final class MutableClock extends Clock {

  private final AtomicReference<Instant> now;
  private final ZoneId zone;

  private MutableClock(AtomicReference<Instant> now, ZoneId zone) {
    this.now = now;
    this.zone = zone;
  }

  /** A clock in UTC showing {@code start} until it is moved. */
  public static MutableClock at(Instant start) {
    return new MutableClock(new AtomicReference<>(Objects.requireNonNull(start, "start")), ZoneOffset.UTC);
  }

  @Override
  public Instant instant() {
    return now.get();
  }

  @Override
  public ZoneId getZone() {
    return zone;
  }

  /** This clock's instant, seen in {@code newZone}: moving either clock moves both. */
  @Override
  public MutableClock withZone(ZoneId newZone) {
    return new MutableClock(now, Objects.requireNonNull(newZone, "newZone"));
  }

  /**
   * Moves the clock forward by {@code amount}.
   *
   * @return the instant the clock shows now
   * @throws IllegalArgumentException when {@code amount} is negative: use {@link #set} to go back
   */
  public Instant advance(Duration amount) {
    Objects.requireNonNull(amount, "amount");
    if (amount.isNegative()) {
      throw new IllegalArgumentException("a clock advances by zero or more, not " + amount
          + "; set(instant) moves it back");
    }
    return now.updateAndGet(instant -> instant.plus(amount));
  }

  /** Makes the clock show {@code instant}, earlier or later than now. */
  public void set(Instant instant) {
    now.set(Objects.requireNonNull(instant, "instant"));
  }

  @Override
  public String toString() {
    return "MutableClock[" + now.get() + ", " + zone + "]";
  }
}
