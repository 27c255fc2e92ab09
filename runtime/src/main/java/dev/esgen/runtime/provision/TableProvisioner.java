package dev.esgen.runtime.provision;

import dev.esgen.runtime.aggregate.AggregateDefinition;
import dev.esgen.runtime.config.StoreConfig;
import dev.esgen.runtime.error.MissingTableException;
import dev.esgen.runtime.error.StreamViewTypeMismatchException;
import dev.esgen.runtime.error.TableSchemaMismatchException;
import dev.esgen.runtime.internal.feed.PositionStore;
import dev.esgen.runtime.internal.journal.JournalAttributes;
import dev.esgen.runtime.internal.keys.IndexKeys;
import dev.esgen.runtime.internal.keys.TipKeys;
import dev.esgen.runtime.internal.tip.TipAttributes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.BillingModeSummary;
import software.amazon.awssdk.services.dynamodb.model.CreateTableRequest;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndexDescription;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndexUpdate;
import software.amazon.awssdk.services.dynamodb.model.IndexStatus;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.LimitExceededException;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.ProvisionedThroughput;
import software.amazon.awssdk.services.dynamodb.model.ProvisionedThroughputDescription;
import software.amazon.awssdk.services.dynamodb.model.ResourceInUseException;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.StreamSpecification;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.awssdk.services.dynamodb.model.TableStatus;
import software.amazon.awssdk.services.dynamodb.model.TimeToLiveDescription;
import software.amazon.awssdk.services.dynamodb.model.TimeToLiveStatus;

/**
 * Creates the journal, snapshot and tip tables a {@link StoreConfig} names, for development, tests and
 * first deployments. Production setups are better described as infrastructure as code
 * ({@code docs/operations.md} shows the same definitions); this class is the executable reference.
 *
 * <p>The journal and snapshot tables are on-demand ({@code PAY_PER_REQUEST}) with string keys
 * {@code pkey} (hash) and {@code skey} (range); the tip table is on-demand with {@code p} (S, hash) and
 * {@code i} (N, range), and always the listing index {@code esgen-tip-listing} that {@code listAll} of
 * tip-layout aggregates reads ({@code docs/schema.md} lists every attribute). The journal gets the
 * {@code aid}/{@code seq_nr} index only when {@link StoreConfig#aidIndex()} is set. TTL is enabled on the
 * snapshot table's {@code ttl} attribute so displaced snapshots in TTL mode expire.
 *
 * <p>Given the aggregate definitions the store will hold, the snapshot table and the tip table also get
 * the global secondary indexes their {@code @Indexed} columns need (the same slots on both, as the
 * layouts keep the values on the journal's head rows and on the tips): as many slots as the aggregate with the most
 * {@code @Indexed} columns has, index {@code esgen-index-{i}} on {@code ix{i}_pk} (hash) and {@code aid}
 * (range), projection {@code KEYS_ONLY} (see {@link IndexKeys}). Slots are shared between aggregate
 * types, so 20 indexes (DynamoDB's default quota per table) serve any number of aggregates with up to 20
 * indexed columns each. Missing indexes are added to an existing table one at a time (DynamoDB allows
 * one index creation per {@code UpdateTable}) and awaited, on a table with provisioned capacity with the
 * table's capacity; DynamoDB backfills them from the head rows already stored. An index of esgen's that is
 * being deleted counts as missing: the call waits until DynamoDB has deleted it, as long as it would wait
 * for one to be built, and adds it again. The call waits until all tables are active, is idempotent and
 * never removes anything.
 *
 * <p>Before it creates or changes anything, it checks every table that already exists: its hash and
 * range key must have the names and types of the definitions above, and so must each of its indexes that
 * has the name of one esgen would create (unless it is being deleted), and every attribute esgen keys a
 * table or index on that the table defines (for another index, not one being deleted). A mismatch throws
 * {@link TableSchemaMismatchException} and leaves all three tables as they were.
 *
 * <p>{@link #enableChangeFeed()} adds what a {@link dev.esgen.runtime.feed.ChangeFeed} needs: streams on
 * the journal and tip tables and the positions table.
 *
 * <pre>{@code
 * new TableProvisioner(client, StoreConfig.defaults())
 *     .createTablesIfMissing(BankAccountRepository.definition(mapper), TransferRepository.definition(mapper));
 * }</pre>
 */
public final class TableProvisioner {

  private static final Logger LOG = LoggerFactory.getLogger(TableProvisioner.class);

  /** How long to wait for an index added to an existing table; a large table takes longer to backfill. */
  private static final Duration INDEX_CREATION_TIMEOUT = Duration.ofMinutes(30);

  /**
   * How often a table change refused because another one is under way (another process provisioning the
   * same tables) is sent again, each after waiting for the table to settle: a refusal that outlasts that
   * (an account's limit on table changes) is thrown.
   */
  private static final int TABLE_UPDATE_ATTEMPTS = 5;

  /** How often a wait for an index reports its progress. */
  private static final Duration STATUS_INTERVAL = Duration.ofSeconds(10);

  private final DynamoDbClient client;
  private final StoreConfig config;

  /**
   * @param client creates, describes and updates the tables
   * @param config names the tables, their options and the snapshot table's TTL
   */
  public TableProvisioner(DynamoDbClient client, StoreConfig config) {
    this.client = Objects.requireNonNull(client, "client");
    this.config = Objects.requireNonNull(config, "config");
  }

  /**
   * Creates whichever of the three tables (journal, snapshot, tip) do not exist yet, with the index
   * slots {@code definitions} need, adds missing index slots (and the tip's listing index) to existing
   * snapshot and tip tables, enables TTL
   * on the snapshot table and waits until everything is active. Every store gets the tip table, whether
   * or not an aggregate uses the tip layout yet: an empty table costs nothing on demand.
   *
   * @param definitions every aggregate type the store will hold (or at least those with
   *     {@code @Indexed} columns); none for a store without indexed columns
   * @return the names of the tables this call created (empty when all existed)
   * @throws TableSchemaMismatchException when an existing table, or an existing index of a name esgen
   *     uses, has other keys than esgen needs, or the snapshot table has time to live on another attribute
   *     than {@code ttl}; nothing was created or changed then
   */
  public List<String> createTablesIfMissing(AggregateDefinition<?, ?, ?>... definitions) {
    int slots = slotsNeeded(List.of(definitions));
    CreateTableRequest journal = journalTable();
    CreateTableRequest snapshot = snapshotTable(slots);
    CreateTableRequest tip = tipTable(tipSlots(slots));
    List<CreateTableRequest> tables = List.of(journal, snapshot, tip);
    // All existing tables are checked before the first change, so that a mismatch in one of them does not
    // leave the others half provisioned.
    List<CreateTableRequest> missing = new ArrayList<>();
    for (CreateTableRequest table : tables) {
      describe(table.tableName()).ifPresentOrElse(existing -> checkSchema(table, existing), () -> missing.add(table));
    }
    // Looked at once: checked now on an existing snapshot table, and what enabling TTL starts from later.
    Optional<TimeToLiveDescription> existingTtl =
        missing.contains(snapshot) ? Optional.empty() : Optional.of(checkedSnapshotTtl());
    List<String> created = new ArrayList<>();
    for (CreateTableRequest table : missing) {
      if (create(table)) {
        LOG.info("creating table {} with {} global secondary index(es)", table.tableName(),
            table.globalSecondaryIndexes().size());
        created.add(table.tableName());
      }
    }
    for (CreateTableRequest table : tables) {
      if (missing.contains(table)) {
        LOG.info("waiting for table {} to become active", table.tableName());
      }
      client.waiter().waitUntilTableExists(b -> b.tableName(table.tableName()));
    }
    addMissingIndexes(snapshot);
    addMissingIndexes(tip);
    enableSnapshotTtl(existingTtl.orElseGet(this::snapshotTtl));
    return created;
  }

  /**
   * Prepares the tables for a {@link dev.esgen.runtime.feed.ChangeFeed}: enables a DynamoDB stream of view
   * type {@code NEW_IMAGE} on the journal and the tip table (the feed reads each written item's new image),
   * creates the positions table {@link StoreConfig#positionsTable()} (on-demand, hash key
   * {@code projection} (S), range key {@code stream} (S)), and waits until all are active. Call it after
   * {@link #createTablesIfMissing}. Idempotent: a table whose stream is enabled already, with
   * {@code NEW_IMAGE} or {@code NEW_AND_OLD_IMAGES} (which holds the new image too), is left as it is.
   *
   * <p>All three tables are checked before anything is changed: a stream of another view type, or a
   * positions table with other keys, throws and leaves every table as it was.
   *
   * <pre>{@code
   * TableProvisioner provisioner = new TableProvisioner(client, config);
   * provisioner.createTablesIfMissing(BankAccountRepository.definition(mapper));
   * provisioner.enableChangeFeed();
   * }</pre>
   *
   * @return the names of the tables this call changed or created, in that order (empty when all was in place)
   * @throws MissingTableException when the journal or the tip table does not exist
   * @throws StreamViewTypeMismatchException when one of them has a stream without new images
   * @throws TableSchemaMismatchException when the positions table exists with other keys
   */
  public List<String> enableChangeFeed() {
    CreateTableRequest positions = positionsTable();
    List<String> streamed = new ArrayList<>();
    for (String table : List.of(config.journalTable(), config.tipTable())) {
      TableDescription existing = describe(table).orElseThrow(() -> new MissingTableException(List.of(table), null));
      StreamSpecification stream = existing.streamSpecification();
      if (stream == null || !Boolean.TRUE.equals(stream.streamEnabled())) {
        streamed.add(table);
      } else if (stream.streamViewType() != StreamViewType.NEW_IMAGE
          && stream.streamViewType() != StreamViewType.NEW_AND_OLD_IMAGES) {
        throw new StreamViewTypeMismatchException(table, stream.streamViewTypeAsString());
      }
    }
    Optional<TableDescription> existingPositions = describe(positions.tableName());
    existingPositions.ifPresent(existing -> checkSchema(positions, existing));

    List<String> changed = new ArrayList<>();
    for (String table : streamed) {
      if (enableStream(table)) {
        changed.add(table);
      }
    }
    if (existingPositions.isEmpty() && create(positions)) {
      LOG.info("creating table {} for the change feed's positions", positions.tableName());
      changed.add(positions.tableName());
    }
    for (String table : streamed) {
      client.waiter().waitUntilTableExists(b -> b.tableName(table));
    }
    client.waiter().waitUntilTableExists(b -> b.tableName(positions.tableName()));
    return changed;
  }

  /**
   * The slots the tip table gets: the listing index takes one of DynamoDB's 20 indexes per table, so a
   * tip-layout aggregate can use at most 19 {@code @Indexed} columns ({@link AggregateDefinition} refuses
   * more); the 20th slot serves journal-layout aggregates only.
   */
  private static int tipSlots(int slots) {
    return Math.min(slots, IndexKeys.MAX_TIP_SLOTS);
  }

  /**
   * The number of index slots the aggregates need: the most {@code @Indexed} columns any of them has (at
   * most {@link IndexKeys#MAX_SLOTS}, as {@link AggregateDefinition} makes sure).
   */
  public static int slotsNeeded(List<AggregateDefinition<?, ?, ?>> definitions) {
    int slots = 0;
    for (AggregateDefinition<?, ?, ?> definition : definitions) {
      slots = Math.max(slots, definition.indexColumns().slotted().size());
    }
    return slots;
  }

  /**
   * The tip table's index for {@code listAll}: {@code lk} (hash), {@code aid} (range), {@code KEYS_ONLY}.
   * Both attributes are written once, when a tip is created, so appends never write this index.
   */
  public static GlobalSecondaryIndex listingIndex() {
    return GlobalSecondaryIndex.builder()
        .indexName(TipKeys.LISTING_INDEX)
        .keySchema(key(TipAttributes.LISTING, KeyType.HASH), key(TipAttributes.AID, KeyType.RANGE))
        .projection(p -> p.projectionType(ProjectionType.KEYS_ONLY))
        .build();
  }

  /**
   * The global secondary index of slot {@code slot}, as created on the snapshot and the tip table.
   *
   * @throws IllegalArgumentException when {@code slot} is not 0 to 19: a table has at most 20 global secondary indexes
   */
  public static GlobalSecondaryIndex slotIndex(int slot) {
    if (slot < 0 || slot >= IndexKeys.MAX_SLOTS) {
      throw new IllegalArgumentException("slot must be 0 to " + (IndexKeys.MAX_SLOTS - 1) + " (a table has at most "
          + IndexKeys.MAX_SLOTS + " global secondary indexes), was " + slot);
    }
    return GlobalSecondaryIndex.builder()
        .indexName(IndexKeys.slotIndexName(slot))
        .keySchema(key(IndexKeys.slotAttribute(slot), KeyType.HASH), key(IndexKeys.AID, KeyType.RANGE))
        .projection(p -> p.projectionType(ProjectionType.KEYS_ONLY))
        .build();
  }

  /**
   * Throws when {@code existing} has other table keys than {@code expected}, or when one of its indexes
   * (not being deleted) has the name of one of {@code expected}'s but other keys, or when it defines an
   * attribute esgen keys on with another type. Indexes {@code expected} does not name are the owner's
   * business: only the types of the attributes they key on are compared, since a table defines each once.
   */
  private static void checkSchema(CreateTableRequest expected, TableDescription existing) {
    String table = expected.tableName();
    String neededKeys = keys(expected.keySchema(), expected.attributeDefinitions());
    String foundKeys = keys(existing.keySchema(), existing.attributeDefinitions());
    if (!neededKeys.equals(foundKeys)) {
      throw new TableSchemaMismatchException(table, null, neededKeys, foundKeys);
    }
    // An index being deleted is not compared: it is going away, and one of esgen's name is added once it is gone
    // (the way out TableSchemaMismatchException points to, taken before DynamoDB has finished the deletion).
    Map<String, GlobalSecondaryIndexDescription> existingIndexes = new HashMap<>();
    staying(existing).forEach(index -> existingIndexes.put(index.indexName(), index));
    for (GlobalSecondaryIndex index : expected.globalSecondaryIndexes()) {
      GlobalSecondaryIndexDescription found = existingIndexes.get(index.indexName());
      if (found == null) {
        continue;
      }
      String neededIndexKeys = keys(index.keySchema(), expected.attributeDefinitions());
      String foundIndexKeys = keys(found.keySchema(), existing.attributeDefinitions());
      if (!neededIndexKeys.equals(foundIndexKeys)) {
        throw new TableSchemaMismatchException(table, index.indexName(), neededIndexKeys, foundIndexKeys);
      }
    }
    // A table defines each key attribute once, for all its indexes: an index of the owner's on aid (N), say,
    // keeps DynamoDB from adding esgen's slot index on aid (S), and refuses every head row, whose aid is a string.
    Map<String, String> foundTypes = new HashMap<>();
    existing.attributeDefinitions().forEach(a -> foundTypes.put(a.attributeName(), a.attributeTypeAsString()));
    for (AttributeDefinition needed : expected.attributeDefinitions()) {
      String foundType = foundTypes.get(needed.attributeName());
      if (foundType != null && !foundType.equals(needed.attributeTypeAsString())
          && !leaving(existing, needed.attributeName())) {
        throw new TableSchemaMismatchException(table, null,
            attribute(needed.attributeName(), needed.attributeTypeAsString(),
                keyedOn(expected, needed.attributeName())),
            attribute(needed.attributeName(), foundType, keyedOn(existing, needed.attributeName())));
      }
    }
  }

  /** {@code attribute aid (S), a key of index esgen-index-0}: an attribute, its type and what is keyed on it. */
  private static String attribute(String name, String type, List<String> indexes) {
    return "attribute " + name + " (" + type + ")"
        + (indexes.isEmpty() ? "" : ", a key of index " + String.join(" and ", indexes));
  }

  /** The indexes {@code expected} keys on {@code attribute}. */
  private static List<String> keyedOn(CreateTableRequest expected, String attribute) {
    List<String> indexes = new ArrayList<>();
    expected.globalSecondaryIndexes().forEach(i -> addIfKeyedOn(i.indexName(), i.keySchema(), attribute, indexes));
    return indexes;
  }

  /**
   * Whether only indexes being deleted key {@code existing} on {@code attribute}: DynamoDB drops its
   * definition with them, and esgen's index defines it anew.
   */
  private static boolean leaving(TableDescription existing, String attribute) {
    return keyedOn(existing, attribute).isEmpty()
        && existing.keySchema().stream().noneMatch(key -> key.attributeName().equals(attribute));
  }

  /** The indexes, global (unless being deleted) and local, {@code existing} keys on {@code attribute}. */
  private static List<String> keyedOn(TableDescription existing, String attribute) {
    List<String> indexes = new ArrayList<>();
    staying(existing).forEach(i -> addIfKeyedOn(i.indexName(), i.keySchema(), attribute, indexes));
    existing.localSecondaryIndexes().forEach(i -> addIfKeyedOn(i.indexName(), i.keySchema(), attribute, indexes));
    return indexes;
  }

  private static void addIfKeyedOn(String index, List<KeySchemaElement> keys, String attribute, List<String> indexes) {
    if (keys.stream().anyMatch(key -> key.attributeName().equals(attribute))) {
      indexes.add(index);
    }
  }

  /** {@code hash key pkey (S), range key skey (S)}: names, roles and types, comparable and readable. */
  private static String keys(List<KeySchemaElement> keySchema, List<AttributeDefinition> attributes) {
    Map<String, String> types = new HashMap<>();
    attributes.forEach(a -> types.put(a.attributeName(), a.attributeTypeAsString()));
    return keySchema.stream()
        .map(k -> k.keyTypeAsString().toLowerCase(Locale.ROOT) + " key " + k.attributeName()
            + " (" + types.get(k.attributeName()) + ")")
        .collect(Collectors.joining(", "));
  }

  private void addMissingIndexes(CreateTableRequest table) {
    String tableName = table.tableName();
    for (GlobalSecondaryIndex index : table.globalSecondaryIndexes()) {
      TableDescription existing = client.describeTable(b -> b.tableName(tableName)).table();
      Optional<GlobalSecondaryIndexDescription> found = indexNamed(existing, index.indexName());
      if (found.isPresent() && found.get().indexStatus() == IndexStatus.DELETING) {
        // An index being deleted serves no lookup and is gone once DynamoDB is done, and DynamoDB refuses
        // to add one of its name until then: it is missing, only later.
        LOG.info("table {}: index {} is being deleted; adding it again once it is gone", tableName, index.indexName());
        existing = await(tableName, "index " + index.indexName() + " deleted",
            now -> indexNamed(now, index.indexName()).filter(i -> i.indexStatus() == IndexStatus.DELETING).isEmpty());
        found = indexNamed(existing, index.indexName());
        if (found.isPresent()) {
          // Added again meanwhile, by another process provisioning the same tables or by hand.
          checkSchema(table, existing);
        }
      }
      if (found.isEmpty()) {
        addIndex(table, index, indexThroughput(existing));
      } else if (found.get().indexStatus() == IndexStatus.ACTIVE) {
        continue;
      }
      // One another process is still building is awaited as well: a lookup through it fails until it is active.
      awaitActive(tableName, index.indexName());
    }
  }

  /**
   * Adds {@code index} to the existing {@code table} (see {@link #changeTable}), with {@code throughput}
   * (null on an on-demand table). DynamoDB refuses it when an index of that name exists, or another is being
   * created or deleted (it changes one at a time); an index of that name another process added meanwhile is
   * just as good once its keys are checked.
   */
  private void addIndex(CreateTableRequest table, GlobalSecondaryIndex index, ProvisionedThroughput throughput) {
    String tableName = table.tableName();
    changeTable(tableName, "adding global secondary index " + index.indexName(), () -> client.updateTable(b -> b
        .tableName(tableName)
        .attributeDefinitions(keyAttributes(table, index))
        .globalSecondaryIndexUpdates(GlobalSecondaryIndexUpdate.builder()
            .create(c -> c.indexName(index.indexName()).keySchema(index.keySchema()).projection(index.projection())
                .provisionedThroughput(throughput))
            .build())),
        now -> {
          // One being deleted is not added: DynamoDB may have refused this update because of that deletion.
          if (indexNamed(now, index.indexName()).filter(i -> i.indexStatus() != IndexStatus.DELETING).isEmpty()) {
            return false;
          }
          checkSchema(table, now);
          return true;
        });
  }

  /**
   * Enables a {@code NEW_IMAGE} stream on {@code table} (see {@link #changeTable}); false when another
   * process enabled one meanwhile (DynamoDB refuses a second), or throws when that one lacks new images.
   */
  private boolean enableStream(String table) {
    return changeTable(table, "enabling a DynamoDB stream of view type NEW_IMAGE", () -> client.updateTable(b -> b
        .tableName(table)
        .streamSpecification(s -> s.streamEnabled(true).streamViewType(StreamViewType.NEW_IMAGE))),
        now -> {
          StreamSpecification stream = now.streamSpecification();
          if (stream == null || !Boolean.TRUE.equals(stream.streamEnabled())) {
            return false;
          }
          if (stream.streamViewType() != StreamViewType.NEW_IMAGE
              && stream.streamViewType() != StreamViewType.NEW_AND_OLD_IMAGES) {
            throw new StreamViewTypeMismatchException(table, stream.streamViewTypeAsString());
          }
          return true;
        });
  }

  /**
   * Sends {@code update}, a change of the existing {@code table}; true when it was made. When DynamoDB
   * refuses it, the table is described again: if {@code doneMeanwhile} finds the change made (by another
   * process provisioning the same tables, between the look and the update; it may throw when that change
   * is not esgen's), false. While another change of the table is under way, waits for the table to settle
   * and sends it again, at most {@link #TABLE_UPDATE_ATTEMPTS} times in all; any other refusal is thrown.
   */
  private boolean changeTable(String table, String what, Runnable update, Predicate<TableDescription> doneMeanwhile) {
    for (int attempt = 1; ; attempt++) {
      LOG.info("{} on table {}", what, table);
      try {
        update.run();
        return true;
      } catch (DynamoDbException e) {
        if (doneMeanwhile.test(client.describeTable(b -> b.tableName(table)).table())) {
          LOG.info("table {}: done by someone else meanwhile ({})", table, what);
          return false;
        }
        if (!busy(e) || attempt == TABLE_UPDATE_ATTEMPTS) {
          throw e;
        }
        await(table, "no other change under way", TableProvisioner::settled);
      }
    }
  }

  /** Whether DynamoDB refused a table change because another change of the table is under way. */
  private static boolean busy(DynamoDbException e) {
    return e instanceof ResourceInUseException || e instanceof LimitExceededException;
  }

  /** Whether {@code table} and each of its indexes are active: no change of it is under way. */
  private static boolean settled(TableDescription table) {
    return table.tableStatus() == TableStatus.ACTIVE
        && table.globalSecondaryIndexes().stream().allMatch(i -> i.indexStatus() == IndexStatus.ACTIVE);
  }

  /**
   * The capacity of an index added to {@code table}: none on an on-demand table; on one with provisioned
   * capacity (created by hand or as infrastructure as code), where DynamoDB refuses an index without any, the
   * table's own, which bounds what the head rows written to it can ask of the index.
   */
  private static ProvisionedThroughput indexThroughput(TableDescription table) {
    // A table created with provisioned capacity may have no billing mode summary at all; an on-demand one
    // reports a capacity of 0, which an index may not be given.
    BillingModeSummary billing = table.billingModeSummary();
    ProvisionedThroughputDescription capacity = table.provisionedThroughput();
    if ((billing != null && billing.billingMode() == BillingMode.PAY_PER_REQUEST) || capacity == null
        || capacity.readCapacityUnits() == null || capacity.readCapacityUnits() == 0) {
      return null;
    }
    return ProvisionedThroughput.builder()
        .readCapacityUnits(capacity.readCapacityUnits())
        .writeCapacityUnits(capacity.writeCapacityUnits())
        .build();
  }

  private void awaitActive(String tableName, String indexName) {
    await(tableName, "index " + indexName + " active", table -> table.tableStatus() == TableStatus.ACTIVE
        && indexNamed(table, indexName).filter(i -> i.indexStatus() == IndexStatus.ACTIVE).isPresent());
  }

  /**
   * Waits until {@code done} holds for the description of {@code tableName}, {@code what} it waits for, and
   * returns that description.
   */
  private TableDescription await(String tableName, String what, Predicate<TableDescription> done) {
    long started = System.nanoTime();
    long deadline = started + INDEX_CREATION_TIMEOUT.toNanos();
    long nextReport = started + STATUS_INTERVAL.toNanos();
    while (true) {
      TableDescription table = client.describeTable(b -> b.tableName(tableName)).table();
      if (done.test(table)) {
        LOG.info("table {}: {} after {} s", tableName, what, Duration.ofNanos(System.nanoTime() - started).toSeconds());
        return table;
      }
      if (System.nanoTime() > nextReport) {
        // Backfilling or deleting an index of a large table takes minutes; say what it is waiting for.
        LOG.info("still waiting for table {}: {}; table {}, indexes {}, {} s so far", tableName, what,
            table.tableStatusAsString(), table.globalSecondaryIndexes().stream()
                .map(i -> i.indexName() + " " + i.indexStatusAsString()).toList(),
            Duration.ofNanos(System.nanoTime() - started).toSeconds());
        nextReport = System.nanoTime() + STATUS_INTERVAL.toNanos();
      }
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("table " + tableName + " has not reached " + what + " after "
            + INDEX_CREATION_TIMEOUT + "; an index is still being backfilled or deleted: call again later");
      }
      try {
        Thread.sleep(500);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while waiting for table " + tableName + ": " + what, e);
      }
    }
  }

  /** {@code table}'s global secondary indexes but those being deleted. */
  private static Stream<GlobalSecondaryIndexDescription> staying(TableDescription table) {
    return table.globalSecondaryIndexes().stream().filter(index -> index.indexStatus() != IndexStatus.DELETING);
  }

  private static Optional<GlobalSecondaryIndexDescription> indexNamed(TableDescription table, String indexName) {
    return table.globalSecondaryIndexes().stream().filter(i -> i.indexName().equals(indexName)).findFirst();
  }

  /** The definitions of {@code index}'s key attributes, taken from the table's, which name their types. */
  private static List<AttributeDefinition> keyAttributes(CreateTableRequest table, GlobalSecondaryIndex index) {
    Set<String> keyNames = index.keySchema().stream().map(KeySchemaElement::attributeName).collect(Collectors.toSet());
    return table.attributeDefinitions().stream().filter(a -> keyNames.contains(a.attributeName())).toList();
  }

  private CreateTableRequest journalTable() {
    CreateTableRequest.Builder table = keyedTable(config.journalTable());
    if (config.aidIndex()) {
      table.attributeDefinitions(
              stringKey(JournalAttributes.PKEY),
              stringKey(JournalAttributes.SKEY),
              stringKey(JournalAttributes.AID),
              AttributeDefinition.builder()
                  .attributeName(JournalAttributes.SEQ_NR).attributeType(ScalarAttributeType.N).build())
          .globalSecondaryIndexes(GlobalSecondaryIndex.builder()
              .indexName(JournalAttributes.AID_INDEX)
              .keySchema(
                  key(JournalAttributes.AID, KeyType.HASH),
                  key(JournalAttributes.SEQ_NR, KeyType.RANGE))
              .projection(p -> p.projectionType(ProjectionType.ALL))
              .build());
    }
    return table.build();
  }

  private CreateTableRequest snapshotTable(int slots) {
    CreateTableRequest.Builder table = keyedTable(config.snapshotTable());
    if (slots > 0) {
      List<AttributeDefinition> attributes = new ArrayList<>(List.of(
          stringKey(JournalAttributes.PKEY), stringKey(JournalAttributes.SKEY), stringKey(IndexKeys.AID)));
      List<GlobalSecondaryIndex> indexes = new ArrayList<>();
      for (int slot = 0; slot < slots; slot++) {
        attributes.add(stringKey(IndexKeys.slotAttribute(slot)));
        indexes.add(slotIndex(slot));
      }
      table.attributeDefinitions(attributes).globalSecondaryIndexes(indexes);
    }
    return table.build();
  }

  private CreateTableRequest tipTable(int slots) {
    List<AttributeDefinition> attributes = new ArrayList<>(List.of(
        stringKey(TipAttributes.STREAM),
        AttributeDefinition.builder().attributeName(TipAttributes.INDEX).attributeType(ScalarAttributeType.N).build(),
        stringKey(TipAttributes.AID),
        stringKey(TipAttributes.LISTING)));
    List<GlobalSecondaryIndex> indexes = new ArrayList<>(List.of(listingIndex()));
    for (int slot = 0; slot < slots; slot++) {
      attributes.add(stringKey(IndexKeys.slotAttribute(slot)));
      indexes.add(slotIndex(slot));
    }
    return CreateTableRequest.builder()
        .tableName(config.tipTable())
        .billingMode(BillingMode.PAY_PER_REQUEST)
        .attributeDefinitions(attributes)
        .keySchema(key(TipAttributes.STREAM, KeyType.HASH), key(TipAttributes.INDEX, KeyType.RANGE))
        .globalSecondaryIndexes(indexes)
        .build();
  }

  private CreateTableRequest positionsTable() {
    return CreateTableRequest.builder()
        .tableName(config.positionsTable())
        .billingMode(BillingMode.PAY_PER_REQUEST)
        .attributeDefinitions(stringKey(PositionStore.PROJECTION), stringKey(PositionStore.STREAM))
        .keySchema(key(PositionStore.PROJECTION, KeyType.HASH), key(PositionStore.STREAM, KeyType.RANGE))
        .build();
  }

  private static CreateTableRequest.Builder keyedTable(String name) {
    return CreateTableRequest.builder()
        .tableName(name)
        .billingMode(BillingMode.PAY_PER_REQUEST)
        .attributeDefinitions(stringKey(JournalAttributes.PKEY), stringKey(JournalAttributes.SKEY))
        .keySchema(key(JournalAttributes.PKEY, KeyType.HASH), key(JournalAttributes.SKEY, KeyType.RANGE));
  }

  private boolean create(CreateTableRequest request) {
    try {
      client.createTable(request);
      return true;
    } catch (ResourceInUseException e) {
      // Created by someone else since we looked: just as good if it has esgen's keys, and checked before
      // anything is added to it.
      checkSchema(request, client.describeTable(b -> b.tableName(request.tableName())).table());
      return false;
    }
  }

  private Optional<TableDescription> describe(String table) {
    try {
      return Optional.of(client.describeTable(b -> b.tableName(table)).table());
    } catch (ResourceNotFoundException e) {
      return Optional.empty();
    }
  }

  /**
   * The existing snapshot table's time to live, checked: a table has one time-to-live attribute, off or
   * {@code ttl} here. On another attribute, the snapshots that aggregates with a snapshot TTL leave behind
   * would never expire.
   */
  private TimeToLiveDescription checkedSnapshotTtl() {
    TimeToLiveDescription ttl = snapshotTtl();
    if (on(ttl) && !JournalAttributes.TTL.equals(ttl.attributeName())) {
      throw new TableSchemaMismatchException(config.snapshotTable(), null,
          "time to live on attribute " + JournalAttributes.TTL + " (or none yet)",
          "time to live on attribute " + ttl.attributeName());
    }
    return ttl;
  }

  /** Enables TTL on the snapshot table's {@code ttl} unless {@code ttl}, its state as looked at, says it is on. */
  private void enableSnapshotTtl(TimeToLiveDescription ttl) {
    // DynamoDB rejects enabling TTL again while it is enabled or still being enabled.
    if (on(ttl)) {
      return;
    }
    LOG.info("enabling time to live on attribute {} of table {}", JournalAttributes.TTL, config.snapshotTable());
    try {
      client.updateTimeToLive(b -> b
          .tableName(config.snapshotTable())
          .timeToLiveSpecification(t -> t.attributeName(JournalAttributes.TTL).enabled(true)));
    } catch (DynamoDbException e) {
      // Another process provisioning the same tables may have enabled it since we looked.
      TimeToLiveDescription now = snapshotTtl();
      if (!JournalAttributes.TTL.equals(now.attributeName()) || !on(now)) {
        throw e;
      }
    }
  }

  private TimeToLiveDescription snapshotTtl() {
    return client.describeTimeToLive(b -> b.tableName(config.snapshotTable())).timeToLiveDescription();
  }

  private static boolean on(TimeToLiveDescription ttl) {
    return ttl.timeToLiveStatus() == TimeToLiveStatus.ENABLED || ttl.timeToLiveStatus() == TimeToLiveStatus.ENABLING;
  }

  private static AttributeDefinition stringKey(String name) {
    return AttributeDefinition.builder().attributeName(name).attributeType(ScalarAttributeType.S).build();
  }

  private static KeySchemaElement key(String name, KeyType type) {
    return KeySchemaElement.builder().attributeName(name).keyType(type).build();
  }
}
