package dev.esgen.runtime.faults;

import dev.esgen.runtime.EventStore;
import dev.esgen.runtime.aggregate.LayoutKind;
import dev.esgen.runtime.aggregate.SnapshotPolicy;
import dev.esgen.runtime.aggregate.TipPolicy;
import dev.esgen.runtime.counter.CounterRepository;
import dev.esgen.runtime.counter.IndexedCounterRepository;
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
  TIP_CALVING(LayoutKind.TIP, 4);

  private final LayoutKind kind;
  private final int tipMaxEvents;

  Layout(LayoutKind kind, int tipMaxEvents) {
    this.kind = kind;
    this.tipMaxEvents = tipMaxEvents;
  }

  LayoutKind kind() {
    return kind;
  }

  CounterRepository counters(EventStore store) {
    return kind == LayoutKind.JOURNAL
        ? new CounterRepository(store, SnapshotPolicy.every(5))
        : new CounterRepository(store, new TipPolicy(32 * 1024, tipMaxEvents, true));
  }

  IndexedCounterRepository indexed(EventStore store) {
    return new IndexedCounterRepository(store, kind, tipMaxEvents);
  }

  /**
   * The request of an append that neither calves nor changes a unique value: the tip layout sends a
   * single UpdateItem unless the append carries a command id.
   */
  Class<? extends SdkRequest> appendRequest(boolean withCommandId) {
    return kind == LayoutKind.JOURNAL || withCommandId ? TransactWriteItemsRequest.class : UpdateItemRequest.class;
  }

  /** The request of a create: the tip layout sends a single PutItem unless it carries a command id. */
  Class<? extends SdkRequest> createRequest(boolean withCommandId) {
    return kind == LayoutKind.JOURNAL || withCommandId ? TransactWriteItemsRequest.class : PutItemRequest.class;
  }
}
