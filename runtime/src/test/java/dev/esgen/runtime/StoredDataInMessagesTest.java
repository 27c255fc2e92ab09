package dev.esgen.runtime;

import static dev.esgen.runtime.testing.AsyncStoreFixture.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import dev.esgen.runtime.aggregate.LayoutKind;
import dev.esgen.runtime.aggregate.TipPolicy;
import dev.esgen.runtime.config.RetryPolicy;
import dev.esgen.runtime.config.StoreConfig;
import dev.esgen.runtime.counter.AsyncCounterRepository;
import dev.esgen.runtime.counter.CounterCreated;
import dev.esgen.runtime.counter.CounterId;
import dev.esgen.runtime.counter.CounterRepository;
import dev.esgen.runtime.counter.IndexedCounterRepository;
import dev.esgen.runtime.counter.Noted;
import dev.esgen.runtime.error.CorruptStreamException;
import dev.esgen.runtime.internal.command.CommandRecords;
import dev.esgen.runtime.testing.AsyncStoreFixture;
import dev.esgen.runtime.testing.CounterLayout;
import dev.esgen.runtime.testing.LogCapture;
import dev.esgen.runtime.testing.TestDynamo;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Error paths that read stored items: neither the exception (its message, causes, suppressed ones, stack
 * trace) nor the log quotes what the items hold.
 */
class StoredDataInMessagesTest {

  private static final String SECRET = "SECRET-42";

  @RegisterExtension
  final AsyncStoreFixture async = new AsyncStoreFixture();

  @RegisterExtension
  final LogCapture logs = new LogCapture("dev.esgen", Level.DEBUG);

  @ParameterizedTest
  @EnumSource(CounterLayout.class)
  void aConflictThatGivesUpQuotesNothingStored(CounterLayout layout) {
    StoreConfig config = StoreConfig.defaults().withRetryPolicy(RetryPolicy.noRetries());
    CounterRepository counters = layout == CounterLayout.JOURNAL
        ? new CounterRepository(TestDynamo.store(config))
        : new CounterRepository(TestDynamo.store(config), new TipPolicy(32 * 1024, 0, true));
    CounterRepository other = layout.repository();
    CounterId id = CounterId.random();
    counters.create(new CounterCreated(id, SECRET));
    Throwable e = assertThrows(RuntimeException.class, () -> counters.transact(id, c -> {
      other.transact(id, o -> List.of(new Noted(SECRET)));
      return List.of(new Noted(SECRET));
    }));
    assertNothingQuotes(e);
  }

  @ParameterizedTest
  @EnumSource(CounterLayout.class)
  void anUnreadableCommandRecordTimeIsCorruptionWithoutTheStoredText(CounterLayout layout) {
    CounterRepository counters = layout.repository();
    CounterId id = CounterId.random();
    counters.create(new CounterCreated(id, "c"));
    counters.transact(id, "cmd-1", c -> c.increment("once"));
    overwriteCommandRecordTime(CounterRepository.NAME, id, "cmd-1");

    CorruptStreamException e = assertThrows(CorruptStreamException.class,
        () -> layout.repository().transact(id, "cmd-1", c -> c.increment("twice")));
    assertEquals("counter " + id.value() + " is corrupt: the record of command 'cmd-1' has no ISO-8601 recorded_at"
        + " attribute (DateTimeParseException)", e.getMessage());
    assertNull(e.getCause());
    assertNothingQuotes(e);
  }

  @ParameterizedTest
  @EnumSource(CounterLayout.class)
  void anUnreadableCommandRecordTimeIsCorruptionWithoutTheStoredTextAsync(CounterLayout layout) {
    AsyncCounterRepository counters = new AsyncCounterRepository(async.store(StoreConfig.defaults()),
        layout == CounterLayout.JOURNAL ? LayoutKind.JOURNAL : LayoutKind.TIP, 0);
    CounterId id = CounterId.random();
    await(counters.create(new CounterCreated(id, "c")));
    await(counters.transact(id, "cmd-1", c -> c.increment("once")));
    overwriteCommandRecordTime(IndexedCounterRepository.NAME, id, "cmd-1");

    CompletionException e = assertThrows(CompletionException.class,
        () -> await(counters.transact(id, "cmd-1", c -> c.increment("twice"))));
    assertInstanceOf(CorruptStreamException.class, e.getCause());
    assertNothingQuotes(e);
  }

  /** Puts {@link #SECRET} where the command record of {@code commandId} keeps its ISO-8601 time. */
  private static void overwriteCommandRecordTime(String aggregate, CounterId id, String commandId) {
    TestDynamo.client().updateItem(b -> b.tableName(StoreConfig.defaults().snapshotTable())
        .key(Map.of(
            "pkey", AttributeValue.fromS(aggregate + "#" + id.value()),
            "skey", AttributeValue.fromS(CommandRecords.SORT_KEY_PREFIX + commandId)))
        .updateExpression("SET #t = :t")
        .conditionExpression("attribute_exists(#t)")
        .expressionAttributeNames(Map.of("#t", CommandRecords.RECORDED_AT))
        .expressionAttributeValues(Map.of(":t", AttributeValue.fromS(SECRET))));
  }

  /** Neither {@code e}, its causes, suppressed ones, its stack trace nor any captured log holds the secret. */
  private void assertNothingQuotes(Throwable e) {
    StringWriter trace = new StringWriter();
    e.printStackTrace(new PrintWriter(trace));
    assertFalse(trace.toString().contains(SECRET), trace.toString());
    for (ILoggingEvent event : logs.events()) {
      assertFalse(event.getFormattedMessage().contains(SECRET), event.getFormattedMessage());
      for (IThrowableProxy t = event.getThrowableProxy(); t != null; t = t.getCause()) {
        assertFalse(String.valueOf(t.getMessage()).contains(SECRET), t.getMessage());
      }
    }
  }
}
