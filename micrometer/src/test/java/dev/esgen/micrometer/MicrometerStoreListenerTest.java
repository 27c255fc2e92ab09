package dev.esgen.micrometer;

import static dev.esgen.micrometer.MicrometerStoreListener.AGGREGATE;
import static dev.esgen.micrometer.MicrometerStoreListener.ATTEMPTS;
import static dev.esgen.micrometer.MicrometerStoreListener.CONFLICTS;
import static dev.esgen.micrometer.MicrometerStoreListener.ERROR;
import static dev.esgen.micrometer.MicrometerStoreListener.EXCEPTION;
import static dev.esgen.micrometer.MicrometerStoreListener.FAILED_ATTEMPTS;
import static dev.esgen.micrometer.MicrometerStoreListener.KIND;
import static dev.esgen.micrometer.MicrometerStoreListener.OPERATION;
import static dev.esgen.micrometer.MicrometerStoreListener.OPERATION_TAG;
import static dev.esgen.micrometer.MicrometerStoreListener.OUTCOME;
import static dev.esgen.micrometer.MicrometerStoreListener.READ_CAPACITY;
import static dev.esgen.micrometer.MicrometerStoreListener.REQUESTS;
import static dev.esgen.micrometer.MicrometerStoreListener.RETRIED;
import static dev.esgen.micrometer.MicrometerStoreListener.SKIPPED_SNAPSHOTS;
import static dev.esgen.micrometer.MicrometerStoreListener.WRITE_CAPACITY;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.esgen.micrometer.notebook.NotebookId;
import dev.esgen.micrometer.notebook.NotebookOpened;
import dev.esgen.micrometer.notebook.NotebookRepository;
import dev.esgen.runtime.DynamoDbEventStore;
import dev.esgen.runtime.config.StoreConfig;
import dev.esgen.runtime.error.AggregateNotFoundException;
import dev.esgen.runtime.provision.TableProvisioner;
import dev.esgen.test.DynamoDbLocal;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/** The listener's meters after real repository operations on DynamoDB Local. */
class MicrometerStoreListenerTest {

  private static DynamoDbClient client;

  private MeterRegistry registry;
  private NotebookRepository notebooks;

  @BeforeAll
  static void connect() {
    client = DynamoDbClient.builder()
        .endpointOverride(DynamoDbLocal.shared().endpoint())
        .region(Region.US_EAST_1)
        .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("local", "local")))
        .httpClientBuilder(UrlConnectionHttpClient.builder())
        .build();
    StoreConfig config = StoreConfig.defaults();
    new TableProvisioner(client, config).createTablesIfMissing(NotebookRepository.definition(config.objectMapper()));
  }

  @AfterAll
  static void disconnect() {
    client.close();
  }

  @BeforeEach
  void freshRegistry() {
    registry = new SimpleMeterRegistry();
    StoreConfig config = StoreConfig.defaults().withListener(MicrometerStoreListener.builder(registry).build());
    notebooks = new NotebookRepository(DynamoDbEventStore.create(client, config));
  }

  @Test
  void eachOperationIsTimedAndItsRequestsAndCapacityRecorded() {
    NotebookId id = NotebookId.random();
    notebooks.create(new NotebookOpened(id, "title-" + id.value()));
    notebooks.transact(id, notebook -> notebook.write("first page"));
    notebooks.load(id);
    notebooks.load(id);

    Timer creates = registry.get(OPERATION)
        .tags(AGGREGATE, "notebook", OPERATION_TAG, "create", OUTCOME, "success", EXCEPTION, "none").timer();
    assertEquals(1, creates.count());
    assertTrue(creates.totalTime(TimeUnit.NANOSECONDS) > 0);
    assertEquals(2, operationTimer("load", "success").count());
    assertEquals(1, operationTimer("transact", "success").count());

    DistributionSummary createWrites = summary(WRITE_CAPACITY, "create");
    assertEquals(1, createWrites.count());
    assertTrue(createWrites.totalAmount() > 0, "a create writes: " + createWrites.totalAmount());
    assertEquals(0, summary(READ_CAPACITY, "create").totalAmount());
    DistributionSummary loadReads = summary(READ_CAPACITY, "load");
    assertEquals(2, loadReads.count());
    assertEquals(2.0, loadReads.totalAmount(), "one strongly consistent read of a small item per load");
    assertEquals(0, summary(WRITE_CAPACITY, "load").totalAmount());
    assertTrue(summary(REQUESTS, "transact").totalAmount() >= 2, "a transact loads, then appends");
    assertEquals("requests", summary(REQUESTS, "transact").getId().getBaseUnit());
    assertEquals("units", summary(READ_CAPACITY, "transact").getId().getBaseUnit());
  }

  @Test
  void writesRecordAttemptsAndConflictsAndReadsDoNot() {
    NotebookId id = NotebookId.random();
    notebooks.create(new NotebookOpened(id, "title-" + id.value()));
    notebooks.load(id);

    assertEquals(1, summary(ATTEMPTS, "create").count());
    assertEquals(1.0, summary(ATTEMPTS, "create").totalAmount());
    assertEquals(0.0, counter(CONFLICTS, "create"));
    assertTrue(registry.find(ATTEMPTS).tag(OPERATION_TAG, "load").meters().isEmpty());
    assertTrue(registry.find(CONFLICTS).tag(OPERATION_TAG, "load").meters().isEmpty());
  }

  @Test
  void aConflictInTransactCountsAsAConflictAnAttemptAndAFailedAttempt() throws Exception {
    NotebookId id = NotebookId.random();
    notebooks.create(new NotebookOpened(id, "title-" + id.value()));
    AtomicBoolean interfered = new AtomicBoolean();
    ExecutorService otherWriter = Executors.newSingleThreadExecutor();
    try {
      notebooks.transact(id, notebook -> {
        // Another writer appends between this attempt's load and its write, once.
        if (interfered.compareAndSet(false, true)) {
          await(otherWriter.submit(() -> notebooks.transact(id, n -> n.write("theirs"))));
        }
        return notebook.write("mine");
      });
    } finally {
      otherWriter.shutdown();
    }

    assertEquals("theirsmine", notebooks.load(id).text());
    DistributionSummary attempts = summary(ATTEMPTS, "transact");
    assertEquals(2, attempts.count(), "both writers' transacts");
    assertEquals(3.0, attempts.totalAmount(), "one attempt for theirs, two for mine");
    assertEquals(2.0, attempts.max());
    assertEquals(1.0, counter(CONFLICTS, "transact"));
    assertEquals(1.0, registry.get(FAILED_ATTEMPTS)
        .tags(AGGREGATE, "notebook", OPERATION_TAG, "transact", KIND, "version_conflict",
            ERROR, "VersionConflictException", RETRIED, "true")
        .counter().count());
  }

  @Test
  void aFailedOperationIsTimedWithItsExceptionsSimpleName() {
    NotebookId missing = NotebookId.random();
    assertThrows(AggregateNotFoundException.class, () -> notebooks.load(missing));

    Timer failed = registry.get(OPERATION)
        .tags(AGGREGATE, "notebook", OPERATION_TAG, "load", OUTCOME, "failure", EXCEPTION, "AggregateNotFoundException")
        .timer();
    assertEquals(1, failed.count());
    assertEquals(1, registry.get(READ_CAPACITY).tags(OPERATION_TAG, "load", OUTCOME, "failure").summary().count());
    assertTrue(registry.find(OPERATION).tags(OPERATION_TAG, "load", OUTCOME, "success").meters().isEmpty());
  }

  @Test
  void aSnapshotTooLargeForAnItemIsCountedPerAggregate() {
    NotebookId id = NotebookId.random();
    notebooks.create(new NotebookOpened(id, "title-" + id.value()));
    String page = "x".repeat(150_000);
    for (int i = 0; i < 3; i++) {
      notebooks.transact(id, notebook -> notebook.write(page));
    }

    // 150, 300 KB of state fit in the head row; 450 KB does not.
    assertEquals(1.0, registry.get(SKIPPED_SNAPSHOTS).tags(AGGREGATE, "notebook").counter().count());
    assertEquals(450_000, notebooks.load(id).text().length());
  }

  @Test
  void tagsHoldNamesNeverIdsOrStoredValues() {
    NotebookId id = NotebookId.random();
    String title = "title-" + id.value();
    notebooks.create(new NotebookOpened(id, title));
    notebooks.transact(id, notebook -> notebook.write("secret page"));
    notebooks.loadByTitle(title);
    assertThrows(AggregateNotFoundException.class, () -> notebooks.load(NotebookId.random()));

    List<String> values = registry.getMeters().stream()
        .flatMap(meter -> meter.getId().getTags().stream())
        .map(Tag::getValue)
        .distinct()
        .toList();
    assertTrue(values.contains("findBytitle"), values.toString());
    for (String value : values) {
      assertFalse(value.contains(id.value().toString()), value);
      assertFalse(value.contains("secret"), value);
    }
  }

  @Test
  void commonTagsGoOnEveryMeterAndMayNotReplaceTheListenersOwn() {
    MeterRegistry tagged = new SimpleMeterRegistry();
    StoreConfig config = StoreConfig.defaults()
        .withListener(MicrometerStoreListener.builder(tagged).tags("store", "primary").build());
    NotebookRepository repository = new NotebookRepository(DynamoDbEventStore.create(client, config));
    NotebookId id = NotebookId.random();
    repository.create(new NotebookOpened(id, "title-" + id.value()));

    assertFalse(tagged.getMeters().isEmpty());
    for (Meter meter : tagged.getMeters()) {
      assertEquals("primary", meter.getId().getTag("store"), meter.getId().toString());
    }
    IllegalArgumentException reserved = assertThrows(IllegalArgumentException.class,
        () -> MicrometerStoreListener.builder(tagged).tags(OPERATION_TAG, "mine"));
    assertTrue(reserved.getMessage().contains("'operation'"), reserved.getMessage());
  }

  private Timer operationTimer(String operation, String outcome) {
    return registry.get(OPERATION).tags(AGGREGATE, "notebook", OPERATION_TAG, operation, OUTCOME, outcome).timer();
  }

  private DistributionSummary summary(String name, String operation) {
    return registry.get(name).tags(AGGREGATE, "notebook", OPERATION_TAG, operation, OUTCOME, "success").summary();
  }

  private double counter(String name, String operation) {
    return registry.get(name).tags(AGGREGATE, "notebook", OPERATION_TAG, operation, OUTCOME, "success")
        .counter().count();
  }

  private static <T> T await(Future<T> future) {
    try {
      return future.get(30, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    } catch (ExecutionException | TimeoutException e) {
      throw new IllegalStateException(e);
    }
  }
}
