package dev.esgen.runtime.feed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.esgen.runtime.config.RetryPolicy;
import dev.esgen.runtime.counter.CounterCreated;
import dev.esgen.runtime.counter.CounterId;
import dev.esgen.runtime.counter.CounterRepository;
import dev.esgen.runtime.counter.Noted;
import dev.esgen.runtime.error.ProjectionFailedException;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.services.dynamodb.model.Record;

/** What the change feed logs: gaps at DEBUG, failed attempts at WARN, never an event's content. */
class FeedLoggingTest {

  private static final String SECRET = "4111-1111-1111-1111";

  private final ListAppender<ILoggingEvent> logged = new ListAppender<>();
  private Logger esgen;

  @BeforeEach
  void capture() {
    esgen = (Logger) LoggerFactory.getLogger("dev.esgen");
    esgen.setLevel(Level.DEBUG);
    logged.start();
    esgen.addAppender(logged);
  }

  @AfterEach
  void release() {
    esgen.detachAppender(logged);
    esgen.setLevel(null);
  }

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
    logged.list.clear();

    assertThrows(ProjectionFailedException.class, () -> feed.handle("shard-1", List.of(records.get(1))));

    List<ILoggingEvent> feedLog = logged.list.stream()
        .filter(e -> e.getLoggerName().equals("dev.esgen.runtime.feed"))
        .toList();
    assertEquals(List.of(Level.DEBUG, Level.WARN, Level.WARN), feedLog.stream().map(ILoggingEvent::getLevel).toList());
    assertEquals("log: reading events 1 to 1 of counter " + id.value() + " from the store, their records have not"
        + " arrived", feedLog.get(0).getFormattedMessage());
    assertEquals("log: event 2 of counter " + id.value() + " failed on attempt 2 (java.lang.IllegalStateException),"
        + " giving up; the stream waits at this event", feedLog.get(2).getFormattedMessage());
    for (ILoggingEvent event : logged.list) {
      assertFalse(event.getFormattedMessage().contains(SECRET), event.getFormattedMessage());
      assertNull(event.getThrowableProxy(), "no exception, whose message may quote the event, is logged");
    }
  }
}
