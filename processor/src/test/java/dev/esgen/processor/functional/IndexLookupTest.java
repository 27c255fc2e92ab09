package dev.esgen.processor.functional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.esgen.processor.functional.catalog.Barcode;
import dev.esgen.processor.functional.catalog.Color;
import dev.esgen.processor.functional.catalog.Details;
import dev.esgen.processor.functional.catalog.Product;
import dev.esgen.processor.functional.catalog.ProductEvent;
import dev.esgen.processor.functional.catalog.ProductRepository;
import dev.esgen.processor.functional.ticket.TicketEvent;
import dev.esgen.processor.functional.ticket.TicketRepository;
import dev.esgen.runtime.error.DuplicateValueException;
import dev.esgen.runtime.error.ValueNotFoundException;
import dev.esgen.runtime.error.VersionConflictException;
import dev.esgen.runtime.query.Page;
import dev.esgen.runtime.query.PageRequest;
import dev.esgen.runtime.repository.Versioned;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.ConsumedCapacity;

/** The generated lookups and uniqueness of index columns, against DynamoDB Local. */
class IndexLookupTest {

  private final ProductRepository products = new ProductRepository(IndexDynamo.store());

  /** Details whose every column value is unique to this call, so tests never see each other's data. */
  private static Details fresh() {
    UUID tag = UUID.randomUUID();
    return new Details("SKU-" + tag, Math.abs(tag.hashCode()), "cat-" + tag, Math.abs(tag.getMostSignificantBits()),
        new BigDecimal(Math.abs(tag.getLeastSignificantBits() % 100_000) + ".50"), true, Color.GREEN, tag,
        Instant.parse("2026-01-02T03:04:05.123456Z").plusSeconds(Math.abs(tag.hashCode() % 100_000)),
        LocalDate.of(2020, 1, 1).plusDays(Math.abs(tag.hashCode() % 10_000)), new Barcode("bc-" + tag));
  }

  private Product create(Details details) {
    return products.create(new ProductEvent.Listed(UUID.randomUUID(), details)).state();
  }

  @Test
  void everyColumnTypeFindsItsAggregate() {
    Details details = fresh();
    Product product = create(details);
    assertEquals(product, products.loadBySku(details.sku()));
    assertEquals(product, products.loadBySku(details.sku().toLowerCase()), "sku is compared ignoring case");
    assertEquals(product, products.loadByCode(details.code()));
    assertEquals(product, products.loadByCategory(details.category()));
    assertEquals(product, products.loadByPriceCents(details.priceCents()));
    assertEquals(product, products.loadByWeight(details.weight()));
    assertEquals(product, products.loadByWeight(details.weight().setScale(4)), "numbers compare by value");
    assertEquals(product, products.loadBySupplier(details.supplier()));
    assertEquals(product, products.loadByListedAt(details.listedAt()));
    assertEquals(product, products.loadByReleaseDate(details.releaseDate()));
    assertEquals(product, products.loadByBarcode(details.barcode()));
    assertTrue(products.listByActive(true, PageRequest.first(100)).items().size() > 0);
    assertTrue(products.listByColor(Color.GREEN, PageRequest.first(100)).items().size() > 0);

    assertEquals(Optional.of(product), products.findByCategory(details.category()));
    assertEquals(Optional.empty(), products.findByCategory("no-such-category"));
    assertEquals(Optional.empty(), products.findBySku("no-such-sku"));
    assertEquals(Optional.empty(), products.findByColor(Color.BLUE).filter(p -> p.id().equals(product.id())));

    ValueNotFoundException unique = assertThrows(ValueNotFoundException.class, () -> products.loadBySku("nope"));
    assertEquals("no product holds the sku looked for", unique.getMessage());
    assertEquals("nope", unique.value());
    ValueNotFoundException indexed =
        assertThrows(ValueNotFoundException.class, () -> products.loadByPriceCents(-1));
    assertEquals("priceCents", indexed.column());
    assertEquals("-1", indexed.value());
  }

  @Test
  void nullValuesAreNotIndexed() {
    Details details = fresh();
    Details sparse = new Details(null, null, null, details.priceCents(), null, false, null, null, null, null,
        new Barcode(null));
    Product product = create(sparse);
    assertEquals(product, products.loadByPriceCents(details.priceCents()));
    assertThrows(IllegalArgumentException.class, () -> products.loadByCategory(null));
    assertThrows(IllegalArgumentException.class, () -> products.findBySku(null));
    // A second aggregate with no sku and no code: null is never reserved.
    create(new Details(null, null, null, 1, null, false, null, null, null, null, null));
  }

  @Test
  void listingPagesThroughMoreThanOnePageWithoutGapsOrDuplicates() {
    String category = "bulk-" + UUID.randomUUID();
    Set<UUID> created = new HashSet<>();
    for (int i = 0; i < 23; i++) {
      Details details = fresh();
      created.add(create(new Details(details.sku(), details.code(), category, details.priceCents(), details.weight(),
          details.active(), details.color(), details.supplier(), details.listedAt(), details.releaseDate(),
          details.barcode())).id());
    }
    List<UUID> listed = new ArrayList<>();
    int pages = 0;
    Page<Product> page = products.listByCategory(category, PageRequest.first(5));
    while (true) {
      pages++;
      page.items().forEach(p -> listed.add(p.id()));
      assertTrue(page.items().size() <= 5);
      if (page.nextCursor().isEmpty()) {
        break;
      }
      page = products.listByCategory(category, PageRequest.after(page.nextCursor().get(), 5));
    }
    assertEquals(created, Set.copyOf(listed));
    assertEquals(created.size(), listed.size(), "no duplicates");
    assertTrue(pages >= 5, "23 items in pages of 5");
    List<String> order = listed.stream().map(UUID::toString).toList();
    assertEquals(order.stream().sorted().toList(), order, "ordered by id string");
  }

  @Test
  void listAllPagesThroughEveryAggregateOnce() {
    Set<UUID> created = new HashSet<>();
    for (int i = 0; i < 9; i++) {
      created.add(create(fresh()).id());
    }
    products.transact(created.iterator().next(), p -> List.of(new ProductEvent.Noted("keeps snapshot behind")));
    List<UUID> listed = new ArrayList<>();
    PageRequest request = PageRequest.first(4);
    while (true) {
      Page<Product> page = products.listAll(request);
      page.items().forEach(p -> listed.add(p.id()));
      if (page.nextCursor().isEmpty()) {
        break;
      }
      request = PageRequest.after(page.nextCursor().get(), 4);
    }
    assertEquals(listed.size(), Set.copyOf(listed).size(), "no duplicates");
    assertTrue(listed.containsAll(created));
  }

  @Test
  void findAllLoadsManyAndLeavesOutMissingIds() {
    List<UUID> ids = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      ids.add(create(fresh()).id());
    }
    products.transact(ids.get(1), p -> List.of(new ProductEvent.Noted("one event after the snapshot")));
    UUID missing = UUID.randomUUID();
    List<UUID> asked = List.of(ids.get(2), missing, ids.get(0), ids.get(1), ids.get(0));
    Map<UUID, Product> found = products.findAll(asked);
    assertEquals(List.of(ids.get(2), ids.get(0), ids.get(1)), List.copyOf(found.keySet()));
    assertEquals(1, found.get(ids.get(1)).notes());

    List<UUID> many = new ArrayList<>(ids);
    for (int i = 0; i < 150; i++) {
      many.add(UUID.randomUUID());
    }
    assertEquals(3, products.findAll(many).size(), "more ids than one BatchGetItem takes");
  }

  @Test
  void aDuplicateOnCreateNamesColumnAndHolderAndWritesNothing() {
    Details first = fresh();
    Product holder = create(first);
    Details clash = fresh();
    Details same = new Details(first.sku().toLowerCase(), clash.code(), clash.category(), clash.priceCents(),
        clash.weight(), true, Color.RED, clash.supplier(), clash.listedAt(), clash.releaseDate(), clash.barcode());
    UUID id = UUID.randomUUID();
    DuplicateValueException e =
        assertThrows(DuplicateValueException.class, () -> products.create(new ProductEvent.Listed(id, same)));
    assertEquals("product", e.aggregateName());
    assertEquals("sku", e.column());
    assertEquals(first.sku().toLowerCase(), e.value());
    assertEquals(Optional.of(holder.id().toString()), e.holderId());
    assertTrue(e.getMessage().startsWith("product sku: the value is already taken"), e.getMessage());
    assertFalse(e.getMessage().contains(first.sku().toLowerCase()), "the value is in value() only: " + e.getMessage());
    assertEquals(Optional.empty(), products.findById(id));
    assertEquals(Optional.empty(), products.findByCategory(clash.category()));
    assertEquals(Optional.empty(), products.findByCode(clash.code()), "the other reservation was not kept");
  }

  @Test
  void aDuplicateOnUpdateLeavesStreamAndIndexValuesUnchanged() {
    Details a = fresh();
    Product holder = create(a);
    Details b = fresh();
    Product other = create(b);
    Details stolen = new Details(b.sku(), a.code(), "moved-" + UUID.randomUUID(), b.priceCents(), b.weight(),
        b.active(), b.color(), b.supplier(), b.listedAt(), b.releaseDate(), b.barcode());
    DuplicateValueException e = assertThrows(DuplicateValueException.class,
        () -> products.transact(other.id(), p -> List.of(new ProductEvent.Changed(stolen))));
    assertEquals("product-code", e.column());
    assertEquals(String.valueOf(a.code()), e.value());

    Versioned<Product> after = products.loadVersioned(other.id());
    assertEquals(1, after.version());
    assertEquals(other, after.state());
    assertEquals(holder, products.loadByCode(a.code()));
    assertEquals(other, products.loadByCode(b.code()));
    assertEquals(other, products.loadByCategory(b.category()));
    assertEquals(Optional.empty(), products.findByCategory(stolen.category()));
  }

  @Test
  void aConflictingAppendChangesNoIndexValue() {
    Details a = fresh();
    Product product = create(a);
    products.append(product.id(), 1, new ProductEvent.Noted("first writer"));
    Details changed = fresh();
    assertThrows(VersionConflictException.class,
        () -> products.append(product.id(), 1, new ProductEvent.Changed(changed)));
    assertEquals(product.id(), products.loadBySku(a.sku()).id());
    assertEquals(product.id(), products.loadByCategory(a.category()).id());
    assertEquals(Optional.empty(), products.findBySku(changed.sku()));
    assertEquals(Optional.empty(), products.findByCategory(changed.category()));
    // the loser's reservation was not kept: another aggregate can take the value
    create(withSku(fresh(), changed.sku()));
  }

  @Test
  void aValueMovesFromOneAggregateToAnother() {
    Details a = fresh();
    Product first = create(a);
    Details b = fresh();
    Details given = fresh();
    products.transact(first.id(), p -> List.of(new ProductEvent.Changed(withSku(p.details(), given.sku()))));
    Product second = create(withSku(b, a.sku()));
    assertEquals(second.id(), products.loadBySku(a.sku()).id());
    assertEquals(first.id(), products.loadBySku(given.sku()).id());
    // and back again, in the other direction: the released value is free at once
    products.transact(second.id(), p -> List.of(new ProductEvent.Changed(withSku(p.details(), null))));
    products.transact(first.id(), p -> List.of(new ProductEvent.Changed(withSku(p.details(), a.sku()))));
    assertEquals(first.id(), products.loadBySku(a.sku()).id());
    assertEquals(Optional.empty(), products.findBySku(given.sku()));
  }

  @Test
  void ofTwoConcurrentCreatesWithTheSameValueExactlyOneWins() throws Exception {
    for (int round = 0; round < 5; round++) {
      String sku = "race-" + UUID.randomUUID();
      CountDownLatch start = new CountDownLatch(1);
      ExecutorService pool = Executors.newFixedThreadPool(2);
      try {
        List<Future<Boolean>> results = new ArrayList<>();
        for (int t = 0; t < 2; t++) {
          results.add(pool.submit(() -> {
            start.await();
            try {
              create(withSku(fresh(), sku));
              return true;
            } catch (DuplicateValueException e) {
              return false;
            }
          }));
        }
        start.countDown();
        int wins = 0;
        for (Future<Boolean> result : results) {
          wins += result.get() ? 1 : 0;
        }
        assertEquals(1, wins, "round " + round);
        assertTrue(products.findBySku(sku).isPresent());
      } finally {
        pool.shutdown();
      }
    }
  }

  @Test
  void anAppendThatChangesNoIndexValueWritesNoIndex() {
    Product product = create(fresh());
    TicketRepository tickets = new TicketRepository(IndexDynamo.store());
    UUID ticketId = UUID.randomUUID();
    tickets.create(new TicketEvent.Opened(ticketId, "capacity"));

    List<List<ConsumedCapacity>> indexed = IndexDynamo.capacity().during(
        () -> products.transact(product.id(), p -> List.of(new ProductEvent.Noted("n"))));
    List<List<ConsumedCapacity>> plain = IndexDynamo.capacity().during(
        () -> tickets.transact(ticketId, t -> List.of(new TicketEvent.Commented("n"))));
    List<List<ConsumedCapacity>> changesUnique = IndexDynamo.capacity().during(
        () -> products.transact(product.id(), p -> List.of(new ProductEvent.Changed(withSku(p.details(), "moved-"
            + UUID.randomUUID())))));
    List<List<ConsumedCapacity>> changesIndexed = IndexDynamo.capacity().during(
        () -> products.transact(product.id(), p -> List.of(new ProductEvent.Changed(withCategory(p.details(),
            "recategorised-" + UUID.randomUUID())))));

    assertEquals(1, indexed.size());
    assertEquals(0.0, gsiUnits(indexed.get(0)), "no global secondary index was written");
    assertEquals(gsiUnits(plain.get(0)), gsiUnits(indexed.get(0)));
    assertEquals(totalUnits(plain.get(0)), totalUnits(indexed.get(0)), "the same as without index columns");
    assertEquals(0.0, gsiUnits(changesUnique.get(0)), "a reservation is a base-table item, not an index entry");
    // The measurement can see index writes: changing an @Indexed value writes its slot's index.
    assertTrue(gsiUnits(changesIndexed.get(0)) > 0, String.valueOf(changesIndexed));
  }

  private static Details withCategory(Details d, String category) {
    return new Details(d.sku(), d.code(), category, d.priceCents(), d.weight(), d.active(), d.color(), d.supplier(),
        d.listedAt(), d.releaseDate(), d.barcode());
  }

  private static double gsiUnits(List<ConsumedCapacity> capacity) {
    return capacity.stream()
        .filter(ConsumedCapacity::hasGlobalSecondaryIndexes)
        .flatMap(c -> c.globalSecondaryIndexes().values().stream())
        .mapToDouble(c -> c.capacityUnits() == null ? 0 : c.capacityUnits())
        .sum();
  }

  private static double totalUnits(List<ConsumedCapacity> capacity) {
    return capacity.stream().mapToDouble(c -> c.capacityUnits() == null ? 0 : c.capacityUnits()).sum();
  }

  private static Details withSku(Details d, String sku) {
    return new Details(sku, d.code(), d.category(), d.priceCents(), d.weight(), d.active(), d.color(), d.supplier(),
        d.listedAt(), d.releaseDate(), d.barcode());
  }
}
