package dev.esgen.example;

import dev.esgen.dynamodblocal.DynamoDbLocal;
import dev.esgen.example.account.AccountId;
import dev.esgen.example.account.BankAccount;
import dev.esgen.example.account.BankAccountRepository;
import dev.esgen.example.transfer.Transfer;
import dev.esgen.example.transfer.TransferRepository;
import dev.esgen.example.transfer.TransferService;
import dev.esgen.runtime.DynamoDbEventStore;
import dev.esgen.runtime.EventStore;
import dev.esgen.runtime.StoreConfig;
import dev.esgen.runtime.error.ConcurrentModificationException;
import dev.esgen.runtime.provision.TableProvisioner;
import dev.esgen.runtime.repository.Versioned;
import java.net.URI;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * Runs the bank end to end: opens accounts, moves money, shows a refused transfer, concurrent
 * deposits and a version conflict, and prints what happened.
 *
 * <p>Uses DynamoDB Local, started here, unless {@code ESGEN_DYNAMODB_ENDPOINT} names an endpoint; then
 * the AWS SDK's default credentials and region apply (for example {@code AWS_REGION}).
 */
public final class ExampleApp {

  private ExampleApp() {}

  public static void main(String[] args) throws Exception {
    String endpoint = System.getenv("ESGEN_DYNAMODB_ENDPOINT");
    if (endpoint == null || endpoint.isBlank()) {
      System.out.println("Starting DynamoDB Local...");
      try (DynamoDbLocal local = DynamoDbLocal.start();
          DynamoDbClient client = localClient(local.endpoint())) {
        System.out.println("DynamoDB Local is listening on " + local.endpoint());
        run(client);
      }
    } else {
      try (DynamoDbClient client =
          DynamoDbClient.builder()
              .endpointOverride(URI.create(endpoint))
              .httpClientBuilder(UrlConnectionHttpClient.builder())
              .build()) {
        System.out.println("Using DynamoDB at " + endpoint);
        run(client);
      }
    }
  }

  /** A client for DynamoDB Local, which accepts any credentials and region. */
  public static DynamoDbClient localClient(URI endpoint) {
    return DynamoDbClient.builder()
        .endpointOverride(endpoint)
        .region(Region.US_EAST_1)
        .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("local", "local")))
        .httpClientBuilder(UrlConnectionHttpClient.builder())
        .build();
  }

  static void run(DynamoDbClient client) throws Exception {
    StoreConfig config = StoreConfig.defaults();
    new TableProvisioner(client, config).createTablesIfMissing();
    EventStore store = DynamoDbEventStore.create(client, config);
    Clock clock = Clock.systemUTC();

    // What a DI container would do: construct the generated repositories and inject them.
    BankAccountRepository accounts = new BankAccountRepository(store);
    TransferRepository transfers = new TransferRepository(store);
    TransferService transferService = new TransferService(accounts, transfers, clock);

    AccountId ann = AccountId.random();
    AccountId bob = AccountId.random();
    accounts.create(BankAccount.opening(ann, "Ann", "ann@example.com", clock.instant()));
    accounts.create(BankAccount.opening(bob, "Bob", "bob@example.com", clock.instant()));
    print("opened", accounts.loadVersioned(ann));
    print("opened", accounts.loadVersioned(bob));

    print("deposited", accounts.transact(ann, a -> a.deposit(100_00, "salary")));

    Transfer sent = transferService.transfer(ann, bob, 30_00);
    System.out.printf("transfer %s of %d cents: %s%n", sent.id().value(), sent.cents(), sent.status());
    Transfer refused = transferService.transfer(ann, bob, 1_000_00);
    System.out.printf("transfer %s of %d cents: %s%n", refused.id().value(), refused.cents(), refused.status());
    print("after transfers", accounts.loadVersioned(ann));
    print("after transfers", accounts.loadVersioned(bob));

    concurrentDeposits(accounts, bob);

    Versioned<BankAccount> current = accounts.loadVersioned(bob);
    accounts.append(bob, current.version(), current.state().deposit(1, "first writer"));
    try {
      accounts.append(bob, current.version(), current.state().deposit(1, "second writer, same version"));
      throw new IllegalStateException("the second append at version " + current.version() + " must fail");
    } catch (ConcurrentModificationException expected) {
      System.out.println("conflict detected: " + expected.getMessage());
    }

    print("closed", accounts.transact(ann, a -> a.close("moving abroad")));
    System.out.println("Done.");
  }

  private static void concurrentDeposits(BankAccountRepository accounts, AccountId id) throws Exception {
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
    System.out.printf(
        "%d threads made %d deposits each, concurrently: balance %d -> %d cents, version %d%n",
        threads, depositsPerThread, before, after.state().balanceCents(), after.version());
  }

  private static void print(String what, Versioned<BankAccount> account) {
    BankAccount a = account.state();
    System.out.printf(
        "%-16s %s owner=%s balance=%d cents closed=%s (version %d, %d events)%n",
        what, a.id().value(), a.owner(), a.balanceCents(), a.closed(), account.version(), account.seqNr());
  }
}
