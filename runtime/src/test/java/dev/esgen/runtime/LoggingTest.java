package dev.esgen.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import dev.esgen.runtime.aggregate.LayoutKind;
import dev.esgen.runtime.codec.EsgenJson;
import dev.esgen.runtime.config.RetryPolicy;
import dev.esgen.runtime.config.StoreConfig;
import dev.esgen.runtime.counter.CounterCreated;
import dev.esgen.runtime.counter.CounterId;
import dev.esgen.runtime.counter.CounterRepository;
import dev.esgen.runtime.counter.IndexedCounterRepository;
import dev.esgen.runtime.counter.Noted;
import dev.esgen.runtime.error.VersionConflictException;
import dev.esgen.runtime.provision.TableProvisioner;
import dev.esgen.runtime.testing.LogCapture;
import dev.esgen.runtime.testing.TestDynamo;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** What esgen logs: retries at DEBUG, give-ups and failing listeners at WARN, provisioning at INFO, no payloads. */
class LoggingTest {

  private static final String SECRET = "4111-1111-1111-1111";

  @RegisterExtension
  final LogCapture logs = new LogCapture("dev.esgen", Level.DEBUG);

  @Test
  void aConflictThatIsRetriedIsLoggedAtDebugWithoutThePayload() {
    CounterRepository counters = new CounterRepository(TestDynamo.store());
    CounterRepository other = new CounterRepository(TestDynamo.store());
    CounterId id = CounterId.random();
    counters.create(new CounterCreated(id, "c"));
    AtomicBoolean interfered = new AtomicBoolean();

    counters.transact(id, c -> {
      if (interfered.compareAndSet(false, true)) {
        other.transact(id, o -> List.of(new Noted("x")));
      }
      return List.of(new Noted(SECRET));
    });

    ILoggingEvent retry = only(Level.DEBUG, "trying again");
    assertTrue(retry.getFormattedMessage().startsWith("counter transact: attempt 1 failed (VERSION_CONFLICT"),
        retry.getFormattedMessage());
    assertNoSecret();
  }

  @Test
  void aGiveUpIsLoggedAtWarn() {
    CounterRepository counters =
        new CounterRepository(TestDynamo.store(StoreConfig.defaults().withRetryPolicy(RetryPolicy.noRetries())));
    CounterRepository other = new CounterRepository(TestDynamo.store());
    CounterId id = CounterId.random();
    counters.create(new CounterCreated(id, "c"));

    assertThrows(VersionConflictException.class, () -> counters.transact(id, c -> {
      other.transact(id, o -> List.of(new Noted("x")));
      return List.of(new Noted(SECRET));
    }));

    ILoggingEvent giveUp = only(Level.WARN, "giving up");
    assertTrue(giveUp.getFormattedMessage().contains("VERSION_CONFLICT"), giveUp.getFormattedMessage());
    assertNoSecret();
  }

  @Test
  void aFailingListenerIsLoggedAtWarnAndTheAppendStands() {
    StoreConfig config = StoreConfig.defaults().withListener(metrics -> {
      throw new IllegalStateException("broken dashboard");
    });
    CounterRepository counters = new CounterRepository(TestDynamo.store(config));
    CounterId id = CounterId.random();

    counters.create(new CounterCreated(id, SECRET));

    ILoggingEvent warning = only(Level.WARN, "StoreListener");
    assertEquals(IllegalStateException.class.getName(), warning.getThrowableProxy().getClassName());
    assertEquals(1, counters.loadVersioned(id).version());
    assertNoSecret();
  }

  @Test
  void provisioningSaysWhatItCreatesAtInfo() {
    String prefix = "log-" + UUID.randomUUID();
    StoreConfig config = StoreConfig.defaults()
        .withJournalTable(prefix + "-journal")
        .withSnapshotTable(prefix + "-snapshot")
        .withTipTable(prefix + "-streams");

    new TableProvisioner(TestDynamo.client(), config).createTablesIfMissing(
        IndexedCounterRepository.definition(EsgenJson.newObjectMapper(), LayoutKind.TIP, 0));

    List<String> info = logs.events().stream()
        .filter(e -> e.getLevel() == Level.INFO)
        .map(ILoggingEvent::getFormattedMessage)
        .toList();
    for (String table : List.of(config.journalTable(), config.snapshotTable(), config.tipTable())) {
      assertTrue(info.stream().anyMatch(m -> m.startsWith("creating table " + table)), table + " in " + info);
    }
    assertTrue(info.stream().anyMatch(m -> m.startsWith("enabling time to live")), info.toString());
  }

  private ILoggingEvent only(Level level, String containing) {
    List<ILoggingEvent> matching = logs.events().stream()
        .filter(e -> e.getLevel() == level && e.getFormattedMessage().contains(containing))
        .toList();
    assertEquals(1, matching.size(), level + " '" + containing + "' in " + logs.events());
    return matching.get(0);
  }

  private void assertNoSecret() {
    for (ILoggingEvent event : logs.events()) {
      assertFalse(event.getFormattedMessage().contains(SECRET), event.getFormattedMessage());
    }
  }
}
