package dev.esgen.runtime.internal.feed;

import dev.esgen.runtime.aggregate.LayoutKind;
import dev.esgen.runtime.config.StoreConfig;
import dev.esgen.runtime.error.CorruptStreamException;
import dev.esgen.runtime.error.MissingTableException;
import dev.esgen.runtime.feed.ReplayReport;
import dev.esgen.runtime.internal.journal.JournalAttributes;
import dev.esgen.runtime.internal.keys.JournalKeys;
import dev.esgen.runtime.internal.keys.TipKeys;
import dev.esgen.runtime.internal.tip.TipAttributes;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.ScanRequest;
import software.amazon.awssdk.services.dynamodb.model.ScanResponse;

/**
 * Replays one projection from the tables: a parallel {@code Scan} of each table holding its aggregate
 * types (the journal for journal-layout types, the tip table for tip-layout types), each table in
 * {@code segments} segments, strongly consistent. Each page of a segment is a batch like a batch of stream
 * records: its events are offered per stream and delivered through the positions by the same
 * {@link DeliveryRounds}, so what the projection took already is dropped, and the live feed may run at the
 * same time.
 *
 * <p>A scan reads each stored event once, and finds every stream whether or not an index lists it. A
 * stream's items share their partition key, so one segment reads all of them, in sort key order: a
 * journal stream's events by seq_nr, a tip stream's batches oldest first, then its tip. (In the journal
 * another stream's events may sort among them; each stream still gets its own events in order.) The filter keeps
 * other aggregate types' items off the wire; DynamoDB bills them all the same.
 *
 * <p>The segments of all tables are read on at most {@code threads} threads, one segment at a time each,
 * a thread taking the next segment when it has finished one. Segments are independent: one waits for
 * nothing of another's (a delivery holds only its stream's lock, and only while it delivers), so segments
 * waiting for a thread wait only for other segments to end, and any number of segments runs on one thread.
 *
 * <pre>{@code
 * ReplayReport report = new TableReplay(client, config, rounds, 64, 8).replay("balances", subscriptions);
 * }</pre>
 */
public final class TableReplay {

  private static final AtomicInteger THREADS = new AtomicInteger();

  private final DynamoDbClient client;
  private final StoreConfig config;
  private final DeliveryRounds rounds;
  private final int segments;
  private final int threads;

  public TableReplay(DynamoDbClient client, StoreConfig config, DeliveryRounds rounds, int segments, int threads) {
    this.client = Objects.requireNonNull(client, "client");
    this.config = Objects.requireNonNull(config, "config");
    this.rounds = Objects.requireNonNull(rounds, "rounds");
    if (segments < 1) {
      throw new IllegalArgumentException("a replay needs at least 1 segment, was " + segments);
    }
    this.segments = segments;
    if (threads < 1) {
      throw new IllegalArgumentException("a replay needs at least 1 thread, was " + threads);
    }
    this.threads = threads;
  }

  /**
   * Delivers every stored event of the subscriptions' aggregate types to them.
   *
   * @param subscriptions one projection's subscriptions, at most one per aggregate type
   */
  public ReplayReport replay(String projection, List<Subscription<?, ?, ?>> subscriptions) {
    Map<String, List<Subscription<?, ?, ?>>> byAggregate = subscriptions.stream()
        .collect(Collectors.groupingBy(s -> s.definition().name()));
    Map<String, Set<String>> aggregatesByTable = new LinkedHashMap<>();
    for (Subscription<?, ?, ?> subscription : subscriptions) {
      String table = subscription.definition().layout() == LayoutKind.TIP ? config.tipTable() : config.journalTable();
      aggregatesByTable.computeIfAbsent(table, t -> new LinkedHashSet<>()).add(subscription.definition().name());
    }
    List<String> tables = new ArrayList<>(aggregatesByTable.keySet());
    AtomicLong streams = new AtomicLong();
    AtomicLong events = new AtomicLong();
    // Segment k of the run is segment k / tables of table k % tables: the tables are read side by side.
    int total = segments * tables.size();
    AtomicInteger next = new AtomicInteger();
    Map<Integer, RuntimeException> failures = new ConcurrentSkipListMap<>();
    Runnable worker = () -> {
      for (int k = next.getAndIncrement(); k < total && !Thread.currentThread().isInterrupted();
          k = next.getAndIncrement()) {
        String table = tables.get(k % tables.size());
        Set<String> aggregates = aggregatesByTable.get(table);
        try {
          replaySegment(scan(table, aggregates, k / tables.size()), aggregates, byAggregate, streams, events);
        } catch (RuntimeException e) {
          failures.put(k, e);
        } catch (Error e) {
          failures.put(k, new IllegalStateException(e));
        }
      }
    };
    int running = Math.min(threads, total);
    ExecutorService pool = Executors.newFixedThreadPool(running, work -> {
      Thread thread = new Thread(work, "esgen-replay-" + THREADS.incrementAndGet());
      thread.setDaemon(true);
      return thread;
    });
    try {
      List<Future<?>> workers = new ArrayList<>();
      for (int t = 0; t < running; t++) {
        workers.add(pool.submit(worker));
      }
      for (Future<?> submitted : workers) {
        awaitWorker(submitted);
      }
    } finally {
      pool.shutdownNow();
    }
    RuntimeException failure = null;
    for (RuntimeException segmentFailure : failures.values()) {
      if (failure == null) {
        failure = segmentFailure;
      } else {
        failure.addSuppressed(segmentFailure);
      }
    }
    if (failure != null) {
      throw failure;
    }
    return new ReplayReport(projection, streams.get(), events.get());
  }

  /**
   * Scans one segment page by page, delivering each page, and counts into {@code streams} and
   * {@code events}. A stream is counted on the first page on which it moves, and remembered as counted
   * while a later page may still hold items of it (see {@link StreamSpan}): only a few streams at a time,
   * as a scan passes a stream for good once it is past the stream's last key.
   */
  private void replaySegment(ScanRequest scan, Set<String> aggregates,
      Map<String, List<Subscription<?, ?, ?>>> byAggregate, AtomicLong streams, AtomicLong events) {
    Map<String, StreamSpan> counted = new HashMap<>();
    Map<String, AttributeValue> start = null;
    do {
      ScanResponse page = page(scan.toBuilder().exclusiveStartKey(start).build());
      OfferedEvents offered = new OfferedEvents();
      Map<String, StreamSpan> spans = new HashMap<>();
      for (Map<String, AttributeValue> item : page.items()) {
        Optional<StoredEvents> stored;
        try {
          stored = EventItems.parse(item, aggregates::contains);
        } catch (ItemShapeException e) {
          throw new CorruptStreamException(e.aggregateName(), e.aggregateId(), e.problem());
        }
        stored.ifPresent(found -> {
          offered.add(found);
          spans.computeIfAbsent(new TipKeys(found.aggregateName()).streamName(found.aggregateId()),
              stream -> StreamSpan.of(item, found));
        });
      }
      DeliveryRounds.Delivered delivered = rounds.run(offered.deliveries(byAggregate::get));
      for (PositionKey moved : delivered.streams()) {
        if (counted.putIfAbsent(moved.stream(), spans.get(moved.stream())) == null) {
          streams.incrementAndGet();
        }
      }
      events.addAndGet(delivered.events());
      start = page.hasLastEvaluatedKey() && !page.lastEvaluatedKey().isEmpty() ? page.lastEvaluatedKey() : null;
      Map<String, AttributeValue> last = start;
      if (last != null) {
        counted.values().removeIf(span -> !span.mayGoOnAfter(last));
      }
    } while (start != null);
  }

  /**
   * Where a stream's items lie in a scan: all under one partition key value, and in the journal only under
   * sort keys starting with {@link JournalKeys#sortKeyPrefix}. Items of other streams may lie among them in
   * the journal (those of the ids that are this one followed by {@code -} and digits), so a segment may
   * read a stream, then pages of others, then the same stream again. A scan reads a segment in key order,
   * so once it is past a key that lacks the stream's partition key or prefix, it is past the stream.
   *
   * @param partitionName the partition key's attribute
   * @param partition the stream's partition key value
   * @param sortKeyPrefix what the stream's sort keys start with; empty in the tip table, whose partitions
   *     are streams
   */
  private record StreamSpan(String partitionName, String partition, String sortKeyPrefix) {

    static StreamSpan of(Map<String, AttributeValue> item, StoredEvents events) {
      AttributeValue pkey = item.get(JournalAttributes.PKEY);
      return pkey != null
          ? new StreamSpan(JournalAttributes.PKEY, pkey.s(),
              JournalKeys.sortKeyPrefix(events.aggregateName(), events.aggregateId()))
          : new StreamSpan(TipAttributes.STREAM, item.get(TipAttributes.STREAM).s(), "");
    }

    /** Whether items after the item keyed {@code key}, which lies after the stream's first, may be the stream's. */
    boolean mayGoOnAfter(Map<String, AttributeValue> key) {
      AttributeValue partitionValue = key.get(partitionName);
      AttributeValue sortKey = key.get(JournalAttributes.SKEY);
      boolean inPartition = partitionValue != null && partition.equals(partitionValue.s());
      return inPartition && (sortKeyPrefix.isEmpty()
          || sortKey != null && sortKey.s() != null && sortKey.s().startsWith(sortKeyPrefix));
    }
  }

  /**
   * Segment {@code segment} of a consistent scan of {@code table}, filtered to the event items of
   * {@code aggregates} by key prefix (the parser checks each item's type exactly: {@code bank-} is also a
   * prefix of {@code bank-account-3}).
   */
  private ScanRequest scan(String table, Set<String> aggregates, int segment) {
    boolean tip = table.equals(config.tipTable());
    Map<String, String> names = new HashMap<>();
    names.put("#k", tip ? TipAttributes.STREAM : JournalAttributes.PKEY);
    Map<String, AttributeValue> values = new HashMap<>();
    List<String> prefixes = new ArrayList<>();
    int k = 0;
    for (String aggregate : aggregates) {
      values.put(":a" + k, AttributeValue.fromS(aggregate + (tip ? TipKeys.STREAM_SEPARATOR : "-")));
      prefixes.add("begins_with(#k, :a" + k + ")");
      k++;
    }
    String filter = "(" + String.join(" OR ", prefixes) + ")";
    if (!tip) {
      names.put("#t", JournalAttributes.EVENT_TYPE);
      filter = "attribute_exists(#t) AND " + filter;
    }
    return ScanRequest.builder()
        .tableName(table)
        .segment(segment)
        .totalSegments(segments)
        .consistentRead(true)
        .filterExpression(filter)
        .expressionAttributeNames(names)
        .expressionAttributeValues(values)
        .build();
  }

  private ScanResponse page(ScanRequest request) {
    try {
      return client.scan(request);
    } catch (ResourceNotFoundException e) {
      throw new MissingTableException(List.of(request.tableName()), e);
    }
  }

  /** Waits for a worker, which keeps what its segments throw; an interrupt ends the replay. */
  private static void awaitWorker(Future<?> worker) {
    try {
      worker.get();
    } catch (ExecutionException e) {
      throw new IllegalStateException(e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting for the replay's segments", e);
    }
  }
}
