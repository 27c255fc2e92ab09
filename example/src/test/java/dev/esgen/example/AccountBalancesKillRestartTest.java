package dev.esgen.example;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.esgen.example.account.AccountClosed;
import dev.esgen.example.account.AccountEvent;
import dev.esgen.example.account.AccountId;
import dev.esgen.example.account.AccountOpened;
import dev.esgen.example.account.BalanceChanged;
import dev.esgen.example.account.BankAccount;
import dev.esgen.example.account.BankAccountRepository;
import dev.esgen.example.readmodel.AccountBalances;
import dev.esgen.runtime.DynamoDbEventStore;
import dev.esgen.runtime.EventStore;
import dev.esgen.runtime.aggregate.LayoutKind;
import dev.esgen.runtime.aggregate.TipPolicy;
import dev.esgen.runtime.config.StoreConfig;
import dev.esgen.runtime.feed.ChangeFeed;
import dev.esgen.runtime.history.RecordedEvent;
import dev.esgen.runtime.provision.TableProvisioner;
import dev.esgen.runtime.streams.CheckpointTable;
import dev.esgen.runtime.streams.PollResult;
import dev.esgen.runtime.streams.StreamPoller;
import dev.esgen.test.DynamoDbLocal;
import dev.esgen.test.DynamoDbLocalExtension;
import dev.esgen.test.TablePrefix;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

/**
 * The balances read model survives a poller killed mid-stream while writers append: the killed poller
 * handled a batch whose checkpoint never reached the table, and was abandoned without {@code close()}; a
 * new poller of the same consumer hands that batch over again. At the end the read model must equal a
 * fold of every account's stored events: no event lost, none applied twice.
 */
@ExtendWith(DynamoDbLocalExtension.class)
class AccountBalancesKillRestartTest {

  private static final int ACCOUNTS = 6;
  private static final int WRITERS = 4;
  private static final int COMMANDS_PER_WRITER = 15;
  private static final int CHECKPOINTS_BEFORE_THE_CRASH = 2;

  private static DynamoDbClient client;
  private static DynamoDbStreamsClient streams;
  private static StoreConfig config;
  private static EventStore store;
  private static AccountBalances balances;
  private static String checkpoints;

  @BeforeAll
  static void provision(DynamoDbClient localClient, TablePrefix tables) {
    client = localClient;
    config = StoreConfig.defaults()
        .withJournalTable(tables.name("journal"))
        .withSnapshotTable(tables.name("snapshot"))
        .withTipTable(tables.name("streams"))
        .withPositionsTable(tables.name("positions"));
    TableProvisioner provisioner = new TableProvisioner(client, config);
    provisioner.createTablesIfMissing(BankAccountRepository.definition(config.objectMapper()));
    provisioner.enableChangeFeed();
    store = DynamoDbEventStore.create(client, config);
    balances = new AccountBalances(client, tables.name("balances"));
    balances.createTableIfMissing();
    checkpoints = tables.name("checkpoints");
    CheckpointTable.createIfMissing(client, checkpoints);
    streams = DynamoDbLocal.shared().newStreamsClient();
  }

  @AfterAll
  static void closeStreams() {
    streams.close();
  }

  @ParameterizedTest
  @EnumSource(LayoutKind.class)
  void theReadModelEqualsTheFoldOfTheStoredEventsAfterAKillAndARestart(LayoutKind layout) throws Exception {
    BankAccountRepository accounts = BankAccountRepository.withDefinition(store,
        BankAccountRepository.definition(config.objectMapper()).withLayout(layout, TipPolicy.defaults()));
    ChangeFeed feed = ChangeFeed.builder(store)
        .transactionalProjection(AccountBalances.PROJECTION, accounts.definition(), balances.projection())
        .build();
    String table = layout == LayoutKind.JOURNAL ? config.journalTable() : config.tipTable();
    String consumer = "balances-" + layout.name().toLowerCase();

    List<AccountId> ids = new ArrayList<>();
    for (int i = 0; i < ACCOUNTS; i++) {
      AccountId id = AccountId.random();
      accounts.create(BankAccount.opening(id, "Owner " + i, id.value() + "@example.com", Instant.now()));
      ids.add(id);
    }

    ExecutorService writers = Executors.newFixedThreadPool(WRITERS);
    try {
      List<Future<?>> writing = new ArrayList<>();
      for (int w = 0; w < WRITERS; w++) {
        writing.add(writers.submit(() -> {
          for (int c = 0; c < COMMANDS_PER_WRITER; c++) {
            AccountId id = ids.get(ThreadLocalRandom.current().nextInt(ACCOUNTS));
            long cents = 1 + ThreadLocalRandom.current().nextInt(500);
            boolean withdraw = c % 3 == 2;
            accounts.transact(id, a -> withdraw && a.balanceCents() >= cents
                ? a.withdraw(cents, "writer") : a.deposit(cents, "writer"));
          }
          return null;
        }));
      }

      // The first poller handles batches while the writers append, until a batch's checkpoint fails to reach
      // the table: it has crashed between handling and checkpointing, and is abandoned as a crash leaves it.
      AtomicInteger checkpointWrites = new AtomicInteger();
      try (DynamoDbClient crashing = clientCrashingAfterCheckpoints(checkpointWrites)) {
        StreamPoller killed = poller(table, consumer, feed).dynamoDbClient(crashing).build();
        // Bounded: should the interceptor stop matching the checkpoint writes, fail instead of polling forever.
        PollResult result;
        int polls = 0;
        do {
          assertTrue(++polls <= 1_000, "the first poller never failed to checkpoint");
          result = killed.pollOnce();
        } while (result.failingShards().isEmpty());
      }
      assertEquals(CHECKPOINTS_BEFORE_THE_CRASH + 1, checkpointWrites.get());

      // A new poller of the same consumer, on its own thread, while the writers go on.
      try (StreamPoller restarted = poller(table, consumer, feed).pollInterval(Duration.ofMillis(50)).build()) {
        restarted.start();
        for (Future<?> f : writing) {
          f.get();
        }
        for (AccountId id : ids) {
          awaitPosition(feed, accounts, id);
        }
        assertTrue(restarted.failure().isEmpty(), () -> "the poller stopped: " + restarted.failure().get());
      }
    } finally {
      writers.shutdown();
    }

    for (AccountId id : ids) {
      assertEquals(fold(accounts, id), balances.find(id).orElseThrow(), "account " + id.value());
    }
  }

  private static StreamPoller.Builder poller(String table, String consumer, ChangeFeed feed) {
    return StreamPoller.builder()
        .streamsClient(streams)
        .dynamoDbClient(client)
        .tableName(table)
        .checkpointTable(checkpoints)
        .consumer(consumer)
        .handler(feed)
        .batchSize(5)
        .retryBackoff(Duration.ZERO, Duration.ZERO);
  }

  /** What the read model must hold: the account's stored events, folded the way the projection folds them. */
  private static AccountBalances.Balance fold(BankAccountRepository accounts, AccountId id) {
    String owner = null;
    long cents = 0;
    long events = 0;
    boolean closed = false;
    try (Stream<RecordedEvent<AccountEvent>> history = accounts.events(id)) {
      for (RecordedEvent<AccountEvent> recorded : (Iterable<RecordedEvent<AccountEvent>>) history::iterator) {
        events++;
        if (recorded.event() instanceof AccountOpened opened) {
          owner = opened.owner();
        } else if (recorded.event() instanceof BalanceChanged changed) {
          cents += changed.deltaCents();
        } else if (recorded.event() instanceof AccountClosed) {
          closed = true;
        }
      }
    }
    assertEquals(accounts.loadVersioned(id).seqNr(), events, "events(id) reads every stored event");
    return new AccountBalances.Balance(owner, cents, events, closed);
  }

  /** Waits until the projection took the account's last stored event; a bounded number of polls, no timing. */
  private static void awaitPosition(ChangeFeed feed, BankAccountRepository accounts, AccountId id)
      throws InterruptedException {
    long last = accounts.loadVersioned(id).seqNr();
    for (int i = 0; i < 600 && feed.position(AccountBalances.PROJECTION, accounts.definition(), id) < last; i++) {
      Thread.sleep(50);
    }
    assertEquals(last, feed.position(AccountBalances.PROJECTION, accounts.definition(), id),
        "position of account " + id.value());
  }

  /** A client whose checkpoint writes succeed {@link #CHECKPOINTS_BEFORE_THE_CRASH} times, then fail. */
  private static DynamoDbClient clientCrashingAfterCheckpoints(AtomicInteger writes) {
    ExecutionInterceptor crash = new ExecutionInterceptor() {
      @Override
      public void beforeExecution(Context.BeforeExecution context, ExecutionAttributes attributes) {
        if (context.request() instanceof PutItemRequest put && put.tableName().equals(checkpoints)
            && put.item().get("skey").s().startsWith("shard#")
            && writes.incrementAndGet() > CHECKPOINTS_BEFORE_THE_CRASH) {
          throw SdkClientException.create("the process died before the checkpoint (simulated)");
        }
      }
    };
    return DynamoDbClient.builder()
        .endpointOverride(DynamoDbLocal.shared().endpoint())
        .region(Region.US_EAST_1)
        .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("local", "local")))
        .httpClientBuilder(UrlConnectionHttpClient.builder())
        .overrideConfiguration(o -> o.addExecutionInterceptor(crash))
        .build();
  }
}
