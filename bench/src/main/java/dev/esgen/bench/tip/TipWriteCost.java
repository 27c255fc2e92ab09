package dev.esgen.bench.tip;

import dev.esgen.bench.Settings;
import dev.esgen.bench.domain.Cart;
import dev.esgen.bench.domain.CartEvent;
import dev.esgen.bench.domain.CartId;
import dev.esgen.bench.domain.CartOpened;
import dev.esgen.bench.domain.CartRepository;
import dev.esgen.bench.domain.CartVariants;
import dev.esgen.bench.domain.ItemAdded;
import dev.esgen.bench.domain.LinesAdded;
import dev.esgen.bench.measure.Clients;
import dev.esgen.bench.measure.Meter;
import dev.esgen.runtime.DynamoDbEventStore;
import dev.esgen.runtime.aggregate.AggregateDefinition;
import dev.esgen.runtime.aggregate.LayoutKind;
import dev.esgen.runtime.aggregate.TipPolicy;
import dev.esgen.runtime.config.StoreConfig;
import dev.esgen.runtime.internal.item.ItemSize;
import dev.esgen.runtime.internal.keys.JournalKeys;
import dev.esgen.runtime.internal.keys.TipKeys;
import dev.esgen.runtime.repository.ReadOptions;
import dev.esgen.runtime.repository.Versioned;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Write units per append against stream length, for the journal and for the tip layout under a range of
 * {@code tipMaxBytes} and {@code tipMaxEvents}: one stream per setting, grown one single-event append at a
 * time with {@code append(versioned, events)} (the write alone, no load), each append measured on its own.
 * Also the read units of a strongly consistent load of the finished stream.
 *
 * <p>Two figures per append. <em>Reported</em> is what DynamoDB Local says it consumed. <em>Billed</em> is
 * what DynamoDB's published rules charge for the items the append wrote, their sizes read back (through an
 * unmetered client) before and after it: a {@code PutItem} or {@code UpdateItem} 1 WCU per started KB of
 * the larger of the item's old and new size, a {@code TransactWriteItems} twice that for every item in it.
 * They differ for transactions: DynamoDB Local 3.1.0 reports one item's units per table, so a calving tip
 * append (batch and tip, one table) and a journal append of several events are reported too low.
 */
public final class TipWriteCost {

  /** The settings measured, in report order: the journal, the tip's defaults, then other tips from small to large. */
  public static final List<Setup> SETUPS = List.of(
      Setup.journal(),
      Setup.tip(TipPolicy.defaults()),
      Setup.tip(new TipPolicy(1024, 0, true)),
      Setup.tip(new TipPolicy(2048, 0, true)),
      Setup.tip(new TipPolicy(4096, 0, true)),
      Setup.tip(new TipPolicy(8192, 0, true)),
      Setup.tip(new TipPolicy(32 * 1024, 0, true)),
      Setup.tip(new TipPolicy(32 * 1024, 10, true)),
      Setup.tip(new TipPolicy(32 * 1024, 25, true)));

  /** The event appended: the benchmark's small one, or the 2 KB one. */
  public enum Body {
    SMALL, TWO_KB;

    CartEvent event() {
      return this == SMALL ? new ItemAdded("SKU-100001", 1, 1_999) : LinesAdded.twoKilobytes();
    }

    public String label() {
      return this == SMALL ? "small (ItemAdded)" : "2 KB (LinesAdded)";
    }
  }

  /** A layout and, for the tip, its policy. */
  public record Setup(String name, LayoutKind layout, TipPolicy tip) {

    static Setup journal() {
      return new Setup("journal", LayoutKind.JOURNAL, TipPolicy.defaults());
    }

    static Setup tip(TipPolicy policy) {
      String events = policy.maxEvents() == 0 ? "" : ", " + policy.maxEvents() + " events";
      return new Setup("tip, " + policy.maxBytes() / 1024 + " KB" + events, LayoutKind.TIP, policy);
    }

    /** Whether this is the tip with {@link TipPolicy#defaults()}. */
    public boolean isTipDefault() {
      return layout == LayoutKind.TIP && tip.equals(TipPolicy.defaults());
    }
  }

  /** One append: the stream's length after it, what it wrote and what that costs. */
  public record Append(int length, int requests, double reportedUnits, double billedUnits, boolean transaction) {}

  /** A setting's stream, grown to the full length with one event body. */
  public record Curve(Setup setup, Body body, List<Append> appends, double loadReadUnits, double loadRequests,
      long tipBytes) {

    /** Mean billed units per append over the appends whose length lies in {@code from .. to}. */
    public double billedMean(int from, int to) {
      return appends.stream().filter(a -> a.length() >= from && a.length() <= to)
          .mapToDouble(Append::billedUnits).average().orElse(Double.NaN);
    }

    /** Mean reported units per append over the appends whose length lies in {@code from .. to}. */
    public double reportedMean(int from, int to) {
      return appends.stream().filter(a -> a.length() >= from && a.length() <= to)
          .mapToDouble(Append::reportedUnits).average().orElse(Double.NaN);
    }

    /** The highest mean of billed units over {@code window} appends in a row (all of them if fewer). */
    public double worstWindow(int window) {
      double worst = 0;
      for (int from = 0; from + window <= Math.max(window, appends.size()); from++) {
        worst = Math.max(worst, appends.subList(from, Math.min(appends.size(), from + window)).stream()
            .mapToDouble(Append::billedUnits).average().orElse(0));
      }
      return worst;
    }

    /** Mean billed units per append over every append up to {@code length}: a stream's cost so far, per append. */
    public double billedMeanUpTo(int length) {
      return billedMean(2, length);
    }
  }

  private static final StoreConfig CONFIG = StoreConfig.defaults();

  private final Settings settings;
  private final URI endpoint;

  public TipWriteCost(Settings settings, URI endpoint) {
    this.settings = settings;
    this.endpoint = endpoint;
  }

  public List<Curve> run() {
    List<Curve> curves = new ArrayList<>();
    Meter meter = new Meter();
    try (DynamoDbClient metered = Clients.local(endpoint, Optional.of(meter));
        DynamoDbClient plain = Clients.local(endpoint, Optional.empty())) {
      DynamoDbEventStore store = DynamoDbEventStore.create(metered, CONFIG);
      for (Body body : Body.values()) {
        int length = body == Body.SMALL ? settings.tipCurveLength() : settings.tipCurveLength() / 4;
        for (Setup setup : SETUPS) {
          settings.progress().printf("  tip write cost: %s, %s%n", setup.name(), body.label());
          curves.add(curve(store, meter, plain, setup, body, length));
        }
      }
    }
    return curves;
  }

  private Curve curve(DynamoDbEventStore store, Meter meter, DynamoDbClient plain, Setup setup, Body body, int length) {
    AggregateDefinition<Cart, CartId, CartEvent> generated = CartRepository.definition(store.objectMapper());
    AggregateDefinition<Cart, CartId, CartEvent> definition =
        setup.layout() == LayoutKind.TIP ? CartVariants.tip(generated, setup.tip()) : generated;
    CartVariants.Repository carts = new CartVariants.Repository(store, definition);
    Items items = new Items(plain, definition);
    CartId id = CartId.random();
    String aid = definition.keys().idString(id);
    Versioned<Cart> stream = carts.create(CartOpened.of(id, "tip-cost"));
    CartEvent event = body.event();
    List<Append> appends = new ArrayList<>();
    for (int n = 2; n <= length; n++) {
      Items.Sizes before = items.sizes(aid, n - 1);
      Meter.Reading start = meter.read();
      stream = carts.append(stream, List.of(event));
      Meter.Reading used = meter.read().minus(start);
      Items.Sizes after = items.sizes(aid, n);
      boolean transaction = setup.layout() == LayoutKind.JOURNAL || after.tipFirst() != before.tipFirst();
      double billed = setup.layout() == LayoutKind.JOURNAL
          ? 2 * (kilobytes(after.event()) + kilobytes(Math.max(before.head(), after.head())))
          : transaction
              ? 2 * (kilobytes(items.batch(aid, before.tipFirst())) + kilobytes(Math.max(before.head(), after.head())))
              : kilobytes(Math.max(before.head(), after.head()));
      appends.add(new Append(n, (int) used.requests(), used.writeUnits(), billed, transaction));
    }
    Meter.Reading start = meter.read();
    carts.load(id, ReadOptions.strong());
    Meter.Reading load = meter.read().minus(start);
    return new Curve(setup, body, appends, load.readUnits(), load.requests(), items.sizes(aid, length).head());
  }

  /** Billing's started kilobytes of an item of {@code bytes}. */
  private static double kilobytes(long bytes) {
    return Math.ceil(bytes / 1024.0);
  }

  /** Reads items back through an unmetered client to learn their sizes. */
  private static final class Items {

    /** The versioned item's size (tip or head row), the tip's first event index, the event item's size. */
    record Sizes(long head, long tipFirst, long event) {}

    private final DynamoDbClient client;
    private final AggregateDefinition<Cart, CartId, CartEvent> definition;

    Items(DynamoDbClient client, AggregateDefinition<Cart, CartId, CartEvent> definition) {
      this.client = client;
      this.definition = definition;
    }

    Sizes sizes(String aid, long seqNr) {
      if (definition.layout() == LayoutKind.TIP) {
        Map<String, AttributeValue> tip = get(CONFIG.tipTable(), tipKey(aid, TipKeys.TIP_INDEX));
        long first = Long.parseLong(tip.get("n").n()) - tip.get("e").l().size();
        return new Sizes(ItemSize.of(tip), first, 0);
      }
      JournalKeys keys = new JournalKeys(definition.name(), definition.shards());
      Map<String, AttributeValue> head = get(CONFIG.snapshotTable(), Map.of(
          "pkey", AttributeValue.fromS(keys.partitionKey(aid)), "skey", AttributeValue.fromS(keys.headSortKey(aid))));
      Map<String, AttributeValue> event = get(CONFIG.journalTable(), Map.of(
          "pkey", AttributeValue.fromS(keys.partitionKey(aid)), "skey", AttributeValue.fromS(keys.sortKey(aid, seqNr))));
      return new Sizes(ItemSize.of(head), 0, ItemSize.of(event));
    }

    /** The size of the batch keyed {@code first}, which a calving append wrote. */
    long batch(String aid, long first) {
      return ItemSize.of(get(CONFIG.tipTable(), tipKey(aid, first)));
    }

    private Map<String, AttributeValue> tipKey(String aid, long index) {
      return Map.of("p", AttributeValue.fromS(new TipKeys(definition.name()).streamName(aid)),
          "i", AttributeValue.fromN(Long.toString(index)));
    }

    private Map<String, AttributeValue> get(String table, Map<String, AttributeValue> key) {
      Map<String, AttributeValue> item = client.getItem(b -> b.tableName(table).key(key).consistentRead(true)).item();
      if (item == null || item.isEmpty()) {
        throw new IllegalStateException("no item " + key.keySet() + " in " + table);
      }
      return item;
    }
  }
}
