package dev.esgen.testkit.memory;

import dev.esgen.runtime.aggregate.AggregateDefinition;
import dev.esgen.runtime.internal.index.IndexChanges;
import dev.esgen.runtime.internal.storage.AppendRequest;
import dev.esgen.runtime.internal.storage.LoadedStream;
import java.util.List;

/**
 * What one of DynamoDB's layouts decides about an append from the items it would write, reproduced without
 * writing them: when a snapshot is taken or skipped, and which of DynamoDB's limits (400 KB per item, 100
 * actions and 4 MB per transaction) the append would break; and in which order the layout lists streams.
 * The in-memory store follows the rules of the layout an aggregate's definition names, so that an append
 * DynamoDB would refuse is refused in memory with the same exception, and the same one is stored.
 */
interface LayoutRules {

  /**
   * Decides the append's snapshot and checks its sizes, before anything is stored. A snapshot skipped for
   * its size is only noted in the plan: the append may yet be refused.
   *
   * @param events the append's events in stored form
   * @param changes the index changes the append makes
   * @param position where the stream stood when it was loaded
   * @param untouchedSlotBytes what the index slots of {@code @Indexed} columns dropped since add to the item
   *     carrying the version: DynamoDB's update leaves them in place, and counts them
   * @throws dev.esgen.runtime.error.ItemTooLargeException when an item would exceed 400 KB
   * @throws dev.esgen.runtime.error.TransactionTooLargeException when the append's transaction would
   *     exceed 100 actions or 4 MB
   * @throws dev.esgen.runtime.error.SnapshotEncodingException when the snapshot codec fails
   */
  <A, I, E> PlannedAppend plan(AppendRequest<A, I, E> request, String aid, List<KeptEvent> events,
      IndexChanges changes, MemoryPosition position, long untouchedSlotBytes);

  /**
   * Whether the layout computes an append's index changes (and refuses a value too long for its key) before
   * it encodes the events, as the tip does, or after encoding and measuring them, as the journal does: of two
   * problems of one append, the one found first is the one reported.
   */
  boolean indexChangesFirst();

  /**
   * Checks event {@code index} of the append as soon as it is encoded, before the next one is: the journal
   * measures its item here, as its layout does while it builds the items one by one. The tip measures
   * nothing until every event is encoded.
   *
   * @throws dev.esgen.runtime.error.ItemTooLargeException when the event's item would exceed 400 KB
   */
  default <A, I, E> void checkEncoded(AppendRequest<A, I, E> request, String aid, int index, KeptEvent event) {}

  /**
   * Checks a reindex of {@code loaded} before anything is written: on the journal, that the head row with every
   * index slot of the state stays within 400 KB, as the journal layout checks it. The tip checks nothing here.
   *
   * @param untouchedSlotBytes as for {@link #plan}
   * @throws dev.esgen.runtime.error.ItemTooLargeException when the item would exceed 400 KB
   */
  default <A> void checkReindex(AggregateDefinition<A, ?, ?> definition, String aid, LoadedStream<A> loaded,
      long untouchedSlotBytes) {}

  /** What the layout sorts the streams of one shard by when it lists them: compared in UTF-8 order. */
  String listingKey(String aggregateName, String aid);

  /**
   * The attribute a {@code listAll} cursor keeps the last {@link #listingKey} in, as the layout's cursors
   * on DynamoDB do, so that a cursor of the other layout is refused here as it is there.
   */
  String listingAttribute();
}
