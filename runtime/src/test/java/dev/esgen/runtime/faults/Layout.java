package dev.esgen.runtime.faults;

import dev.esgen.runtime.EventStore;
import dev.esgen.runtime.aggregate.LayoutKind;
import dev.esgen.runtime.aggregate.SnapshotPolicy;
import dev.esgen.runtime.aggregate.TipPolicy;
import dev.esgen.runtime.counter.CounterRepository;
import dev.esgen.runtime.counter.IndexedCounterRepository;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.provider.Arguments;
import software.amazon.awssdk.core.SdkRequest;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsRequest;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;

/** The storage layouts the fault tests run on, with the request each sends for a write. */
enum Layout {

  /** Journal and snapshot tables, a snapshot every 5 events. */
  JOURNAL(LayoutKind.JOURNAL, 0),

  /** The tip layout without calving (the tip only grows). */
  TIP(LayoutKind.TIP, 0),

  /** The tip layout calving every 4 events into a batch item. */
  TIP_CALVING(LayoutKind.TIP, 4),

  /**
   * The tip layout with a threshold of one byte: every append's events go straight to a batch item (the
   * indexed counters calve as {@link #TIP} does).
   */
  TIP_WRITE_THROUGH(LayoutKind.TIP, 0, 1);

  private final LayoutKind kind;
  private final int tipMaxEvents;
  private final int tipMaxBytes;

  Layout(LayoutKind kind, int tipMaxEvents) {
    this(kind, tipMaxEvents, 32 * 1024);
  }

  Layout(LayoutKind kind, int tipMaxEvents, int tipMaxBytes) {
    this.kind = kind;
    this.tipMaxEvents = tipMaxEvents;
    this.tipMaxBytes = tipMaxBytes;
  }

  LayoutKind kind() {
    return kind;
  }

  CounterRepository counters(EventStore store) {
    return kind == LayoutKind.JOURNAL
        ? new CounterRepository(store, SnapshotPolicy.every(5))
        : new CounterRepository(store, new TipPolicy(tipMaxBytes, tipMaxEvents, true));
  }

  IndexedCounterRepository indexed(EventStore store) {
    return new IndexedCounterRepository(store, kind, tipMaxEvents);
  }

  /**
   * The request of an append of {@link #counters} that does not calve the tip's events and changes no unique
   * value: the tip layout sends a single UpdateItem unless the append carries a command id or its events go
   * straight to a batch item.
   */
  Class<? extends SdkRequest> appendRequest(boolean withCommandId) {
    return kind == LayoutKind.JOURNAL || withCommandId || this == TIP_WRITE_THROUGH
        ? TransactWriteItemsRequest.class
        : UpdateItemRequest.class;
  }

  /**
   * The arguments of a parameterized test over every layout and each of {@code values}: one per pair, layout
   * by layout, e.g. {@code each(false, true)} for every layout with and without a command id.
   */
  static List<Arguments> each(Object... values) {
    List<Arguments> arguments = new ArrayList<>();
    for (Layout layout : values()) {
      for (Object value : values) {
        arguments.add(Arguments.of(layout, value));
      }
    }
    return arguments;
  }

  /** The request of a create: the tip layout sends a single PutItem unless it carries a command id. */
  Class<? extends SdkRequest> createRequest(boolean withCommandId) {
    return kind == LayoutKind.JOURNAL || withCommandId ? TransactWriteItemsRequest.class : PutItemRequest.class;
  }
}
