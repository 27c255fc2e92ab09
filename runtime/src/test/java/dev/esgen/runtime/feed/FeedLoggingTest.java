package dev.esgen.runtime.feed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import dev.esgen.runtime.config.RetryPolicy;
import dev.esgen.runtime.counter.CounterCreated;
import dev.esgen.runtime.counter.CounterId;
import dev.esgen.runtime.counter.CounterRepository;
import dev.esgen.runtime.counter.Noted;
import dev.esgen.runtime.error.ProjectionFailedException;
import dev.esgen.runtime.testing.LogCapture;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.services.dynamodb.model.Record;

/** What the change feed logs: gaps at DEBUG, failed attempts at WARN, never an event's content. */
class FeedLoggingTest {

  private static final String SECRET = "4111-1111-1111-1111";

  @RegisterExtension
  final LogCapture logs = new LogCapture("dev.esgen", Level.DEBUG);

  @Test
  void retriesAndGiveUpsAreLoggedWithoutTheEventOrTheHandlersMessage() {
    FeedFixture fixture = new FeedFixture();
    CounterRepository counters = fixture.counters(FeedFixture.Layout.JOURNAL);
    CounterId id = CounterId.random();
    counters.create(new CounterCreated(id, "c"));
    counters.transact(id, c -> List.of(new Noted(SECRET)));
    ChangeFeed feed = ChangeFeed.builder(fixture.store)
        .projection("log", counters.definition(), event -> {
          if (event.event() instanceof Noted noted) {
            throw new IllegalStateException("cannot store " + noted.text());
          }
        })
        .retryPolicy(new RetryPolicy(2, Duration.ofMillis(1), Duration.ofMillis(1)))
        .build();
    List<Record> records = fixture.records(FeedFixture.Layout.JOURNAL);
    logs.clear();

    assertThrows(ProjectionFailedException.class, () -> feed.handle("shard-1", List.of(records.get(1))));

    List<ILoggingEvent> feedLog = logs.events().stream()
        .filter(e -> e.getLoggerName().equals("dev.esgen.runtime.feed"))
        .toList();
    assertEquals(List.of(Level.DEBUG, Level.WARN, Level.WARN), feedLog.stream().map(ILoggingEvent::getLevel).toList());
    assertEquals("log: reading events 1 to 1 of counter " + id.value() + " from the store, their records have not"
        + " arrived", feedLog.get(0).getFormattedMessage());
    assertEquals("log: event 2 of counter " + id.value() + " failed on attempt 2 (java.lang.IllegalStateException),"
        + " giving up; the stream waits at this event", feedLog.get(2).getFormattedMessage());
    for (ILoggingEvent event : logs.events()) {
      assertFalse(event.getFormattedMessage().contains(SECRET), event.getFormattedMessage());
      assertNull(event.getThrowableProxy(), "no exception, whose message may quote the event, is logged");
    }
  }
}
