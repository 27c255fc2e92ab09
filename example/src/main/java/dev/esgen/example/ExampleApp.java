package dev.esgen.example;

import dev.esgen.example.account.AccountEvent;
import dev.esgen.example.account.AccountId;
import dev.esgen.example.account.BankAccount;
import dev.esgen.example.account.BankAccountRepository;
import dev.esgen.example.transfer.Transfer;
import dev.esgen.example.transfer.TransferRepository;
import dev.esgen.example.transfer.TransferService;
import dev.esgen.runtime.DynamoDbEventStore;
import dev.esgen.runtime.EventStore;
import dev.esgen.runtime.config.StoreConfig;
import dev.esgen.runtime.error.DuplicateValueException;
import dev.esgen.runtime.error.VersionConflictException;
import dev.esgen.example.readmodel.AccountBalances;
import dev.esgen.runtime.feed.ChangeFeed;
import dev.esgen.runtime.history.RecordedEvent;
import dev.esgen.runtime.provision.TableProvisioner;
import dev.esgen.runtime.query.Page;
import dev.esgen.runtime.query.PageRequest;
import dev.esgen.runtime.repository.Versioned;
import dev.esgen.runtime.streams.CheckpointTable;
import dev.esgen.runtime.streams.StreamPoller;
import dev.esgen.test.DynamoDbLocal;
import java.io.PrintStream;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbServiceClientConfiguration;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

/**
 * Runs the bank end to end: opens accounts, finds one by e-mail and lists them by owner, shows a
 * refused duplicate e-mail, moves money, shows a refused transfer, concurrent deposits and a version
 * conflict, and prints what happened: the stored events of one account, the balances a projection kept
 * in a read model from the journal's stream, and what each operation cost.
 *
 * <p>Uses DynamoDB Local, started here, unless {@code ESGEN_DYNAMODB_ENDPOINT} names an endpoint; then
 * the AWS SDK's default credentials and region apply (for example {@code AWS_REGION}).
 */
public final class ExampleApp {

  public static void main(String[] args) throws Exception {
    String endpoint = System.getenv("ESGEN_DYNAMODB_ENDPOINT");
    if (endpoint == null || endpoint.isBlank()) {
      System.out.println("Starting DynamoDB Local...");
      try (DynamoDbLocal local = DynamoDbLocal.start();
          DynamoDbClient client = local.newClient()) {
        System.out.println("Started " + local);
        run(client, UnaryOperator.identity(), System.out);
      }
    } else {
      try (DynamoDbClient client =
          DynamoDbClient.builder()
              .endpointOverride(URI.create(endpoint))
              .httpClientBuilder(UrlConnectionHttpClient.builder())
              .build()) {
        System.out.println("Using DynamoDB at " + endpoint);
        run(client, UnaryOperator.identity(), System.out);
      }
    }
  }

  /**
   * Runs the scenario on {@code client}, writing what happens to {@code out}, in the tables
   * {@code tableNames} names from the base names {@code journal}, {@code snapshot}, {@code streams},
   * {@code positions}, {@code account-balances} and {@code esgen-feed} (a test gives them its own prefix).
   */
  static void run(DynamoDbClient client, UnaryOperator<String> tableNames, PrintStream out) throws Exception {
    new ExampleApp(out, tableNames).scenario(client);
  }

  private final PrintStream out;
  private final UnaryOperator<String> tableNames;

  private ExampleApp(PrintStream out, UnaryOperator<String> tableNames) {
    this.out = out;
    this.tableNames = tableNames;
  }

  private void scenario(DynamoDbClient client) throws Exception {
    CostReport costs = new CostReport();
    StoreConfig config = StoreConfig.defaults()
        .withJournalTable(tableNames.apply("journal"))
        .withSnapshotTable(tableNames.apply("snapshot"))
        .withTipTable(tableNames.apply("streams"))
        .withPositionsTable(tableNames.apply("positions"))
        .withListener(costs);
    // Given the definitions, the provisioner also creates the index the @Indexed owner column needs.
    new TableProvisioner(client, config).createTablesIfMissing(
        BankAccountRepository.definition(config.objectMapper()), TransferRepository.definition(config.objectMapper()));
    EventStore store = DynamoDbEventStore.create(client, config);
    Clock clock = Clock.systemUTC();

    // What a DI container would do: construct the generated repositories and inject them.
    BankAccountRepository accounts = new BankAccountRepository(store);
    TransferRepository transfers = new TransferRepository(store);
    TransferService transferService = new TransferService(accounts, transfers, clock);

    // The read side: a projection keeps balances in a table of their own, fed by the journal's stream.
    AccountBalances balances = new AccountBalances(client, tableNames.apply("account-balances"));
    balances.createTableIfMissing();
    new TableProvisioner(client, config).enableChangeFeed();
    String checkpoints = tableNames.apply("esgen-feed");
    CheckpointTable.createIfMissing(client, checkpoints);
    ChangeFeed feed = ChangeFeed.builder(store)
        .transactionalProjection(AccountBalances.PROJECTION, accounts.definition(), balances.projection())
        .build();
    DynamoDbServiceClientConfiguration settings = client.serviceClientConfiguration();
    // The poller's thread is not a daemon: close it on every path, or a failure below leaves the JVM running.
    try (DynamoDbStreamsClient streamsClient = DynamoDbStreamsClient.builder()
            .endpointOverride(settings.endpointOverride().orElse(null))
            .region(settings.region())
            .credentialsProvider(settings.credentialsProvider())
            .httpClientBuilder(UrlConnectionHttpClient.builder())
            .build();
        StreamPoller poller = StreamPoller.builder()
            .streamsClient(streamsClient)
            .dynamoDbClient(client)
            .tableName(config.journalTable())
            .checkpointTable(checkpoints)
            .consumer(AccountBalances.PROJECTION)
            .handler(feed)
            .pollInterval(Duration.ofMillis(200))
            .build()) {
      poller.start();
      bank(accounts, transferService, clock, balances, feed, poller);
    }
    out.println(costs.table());
    out.println("Done.");
  }

  /** The writes, the reads and the read model, while {@code poller} keeps the read model. */
  private void bank(BankAccountRepository accounts, TransferService transferService, Clock clock,
      AccountBalances balances, ChangeFeed feed, StreamPoller poller) throws Exception {
    AccountId ann = AccountId.random();
    AccountId bob = AccountId.random();
    AccountId annSavings = AccountId.random();
    // E-mail addresses are unique; a run against a persistent endpoint needs fresh ones each time.
    String run = ann.value().toString().substring(0, 8);
    String annEmail = "ann-" + run + "@example.com";
    accounts.create(BankAccount.opening(ann, "Ann", annEmail, clock.instant()));
    accounts.create(BankAccount.opening(bob, "Bob", "bob-" + run + "@example.com", clock.instant()));
    accounts.create(BankAccount.opening(annSavings, "Ann", "ann-savings-" + run + "@example.com", clock.instant()));
    print("opened", accounts.loadVersioned(ann));
    print("opened", accounts.loadVersioned(bob));
    print("opened", accounts.loadVersioned(annSavings));

    lookups(accounts, annEmail, bob);

    print("deposited", accounts.transact(ann, a -> a.deposit(100_00, "salary")));
    // A command id makes a command idempotent: sent again (a client retry, a restart), it is not applied twice.
    String bonus = "bonus-" + run;
    print("bonus", accounts.transact(ann, bonus, a -> a.deposit(10_00, "bonus")));
    Versioned<BankAccount> again = accounts.transact(ann, bonus, a -> a.deposit(10_00, "bonus"));
    print("bonus sent again, not applied twice", again);

    Transfer sent = transferService.transfer(ann, bob, 30_00);
    out.printf("transfer %s of %d cents: %s%n", sent.id().value(), sent.cents(), sent.status());
    Transfer refused = transferService.transfer(ann, bob, 1_000_00);
    out.printf("transfer %s of %d cents: %s%n", refused.id().value(), refused.cents(), refused.status());
    print("after transfers", accounts.loadVersioned(ann));
    print("after transfers", accounts.loadVersioned(bob));

    concurrentDeposits(accounts, bob);

    // Two writers hold the same loaded version; appending to what they loaded is one write each.
    Versioned<BankAccount> current = accounts.loadVersioned(bob);
    print("first writer", accounts.append(current, current.state().deposit(1, "first writer")));
    try {
      accounts.append(current, current.state().deposit(1, "second writer, same version"));
      throw new IllegalStateException("the second append at version " + current.version() + " must fail");
    } catch (VersionConflictException expected) {
      out.println("conflict detected: " + expected.getMessage());
    }

    print("closed", accounts.transact(ann, a -> a.close("moving abroad")));

    // What event sourcing keeps: every change to Ann's account, as stored.
    out.println("Ann's account, as stored:");
    try (Stream<RecordedEvent<AccountEvent>> history = accounts.events(ann)) {
      history.forEach(e -> out.printf("  %2d  %-20s %s%n", e.seqNr(), e.eventType(), e.recordedAt()));
    }

    // The read model lags the writes by a poll or so; wait until it has taken each account's last event.
    for (AccountId id : List.of(ann, bob, annSavings)) {
      awaitProjected(feed, poller, accounts, id);
      AccountBalances.Balance balance = balances.find(id).orElseThrow();
      out.printf("read model: %s owner=%s balance=%d cents closed=%s (%s)%n",
          id.value(), balance.owner(), balance.cents(), balance.closed(), events(balance.events()));
    }
  }

  private static void awaitProjected(ChangeFeed feed, StreamPoller poller, BankAccountRepository accounts,
      AccountId id) throws InterruptedException {
    long last = accounts.loadVersioned(id).seqNr();
    Instant deadline = Instant.now().plusSeconds(60);
    while (feed.position(AccountBalances.PROJECTION, accounts.definition(), id) < last) {
      if (poller.failure().isPresent()) {
        throw new IllegalStateException("the poller stopped", poller.failure().get());
      }
      if (Instant.now().isAfter(deadline)) {
        throw new IllegalStateException("the read model did not reach event " + last + " of " + id.value());
      }
      Thread.sleep(100);
    }
  }

  /** Finds an account by e-mail (any case), lists Ann's accounts, and shows a refused duplicate address. */
  private void lookups(BankAccountRepository accounts, String annEmail, AccountId bob) {
    BankAccount byEmail = accounts.loadByEmail(annEmail.toUpperCase());
    out.printf("found by email %s: %s owned by %s%n", annEmail.toUpperCase(), byEmail.id().value(),
        byEmail.owner());

    List<String> annAccounts = new ArrayList<>();
    PageRequest request = PageRequest.first(10);
    while (true) {
      Page<BankAccount> page = accounts.listByOwner("Ann", request);
      page.items().forEach(a -> annAccounts.add(a.id().value() + " <" + a.email() + ">"));
      if (page.nextCursor().isEmpty()) {
        break;
      }
      request = PageRequest.after(page.nextCursor().get(), 10);
    }
    // The owner index is eventually consistent: just after opening, an account may still be missing.
    out.println("accounts owned by Ann: " + annAccounts);

    try {
      accounts.transact(bob, b -> b.changeEmail(annEmail));
      throw new IllegalStateException("Bob must not get Ann's e-mail address");
    } catch (DuplicateValueException expected) {
      out.println("duplicate refused: " + expected.getMessage());
    }
  }

  private void concurrentDeposits(BankAccountRepository accounts, AccountId id) throws Exception {
    int threads = 4;
    int depositsPerThread = 10;
    long before = accounts.load(id).balanceCents();
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int thread = t;
        done.add(
            pool.submit(
                () -> {
                  for (int i = 0; i < depositsPerThread; i++) {
                    String reference = "thread-" + thread + "-deposit-" + i;
                    accounts.transact(id, a -> a.deposit(1_00, reference));
                  }
                  return null;
                }));
      }
      for (Future<?> f : done) {
        f.get();
      }
    } finally {
      pool.shutdown();
    }
    Versioned<BankAccount> after = accounts.loadVersioned(id);
    long expected = before + threads * depositsPerThread * 1_00L;
    if (after.state().balanceCents() != expected) {
      throw new IllegalStateException("lost a deposit: expected " + expected + ", found " + after.state().balanceCents());
    }
    out.printf(
        "%d threads made %d deposits each, concurrently: balance %d -> %d cents, version %d%n",
        threads, depositsPerThread, before, after.state().balanceCents(), after.version());
  }

  private void print(String what, Versioned<BankAccount> account) {
    BankAccount a = account.state();
    out.printf(
        "%-16s %s owner=%s balance=%d cents closed=%s (version %d, one per append; %s)%n",
        what, a.id().value(), a.owner(), a.balanceCents(), a.closed(), account.version(), events(account.seqNr()));
  }

  private static String events(long count) {
    return count == 1 ? "1 event" : count + " events";
  }
}
