package dev.esgen.annotations;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks an event-sourced aggregate: a record (or final class) whose state is the fold of its events.
 *
 * <p>The aggregate declares how it comes to be and how it changes:
 * <ul>
 *   <li>one {@code static} method returning the aggregate that takes the creating event;</li>
 *   <li>one instance method {@code apply} returning the aggregate for every other event type, or a
 *       single {@code apply} taking the sealed root of the events.</li>
 * </ul>
 * From this the processor generates, in the aggregate's package, {@code <Name>Repository} (the typed
 * API services use), the event and snapshot codecs, the key builder, the index-column mapper and the
 * replay dispatch. {@link #layout()} chooses how the streams are stored.
 *
 * <pre>{@code
 * @Aggregate(name = "bank-account", events = AccountEvent.class, shards = 8, snapshotEvery = 50)
 * public record BankAccount(@AggregateId AccountId id, String owner, long balanceCents) {
 *   static BankAccount open(AccountOpened e) { return new BankAccount(e.id(), e.owner(), 0); }
 *   BankAccount apply(MoneyDeposited e) { return new BankAccount(id, owner, balanceCents + e.cents()); }
 *   List<AccountEvent> deposit(long cents) { return List.of(new MoneyDeposited(cents)); }
 * }
 * }</pre>
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target(ElementType.TYPE)
public @interface Aggregate {

  /**
   * The aggregate type's stored name, for example {@code "bank-account"}: the prefix of every key.
   * Lower-case letters, digits and {@code '-'}; never change it once data is written.
   */
  String name();

  /** The sealed root of this aggregate's events; it must carry {@link DomainEvents}. */
  Class<?> events();

  /**
   * How many partition-key shards the aggregate type's streams are spread over. A stream always lives
   * in one shard (chosen by a stable hash of its id); more shards spread the write load of many streams.
   * Changing it after data is written makes existing streams unreachable.
   */
  int shards() default 4;

  /**
   * Write a snapshot once this many events have been appended since the last one. The snapshot is
   * written in the same transaction as the events that reach the threshold.
   */
  int snapshotEvery() default 100;

  /**
   * How many snapshot rows to keep (0 keeps none). With 1 or more, every snapshot is also stored as a row
   * at its seq_nr, the current one's included: {@code snapshotsToKeep = 2} keeps the current snapshot and the
   * one before it. When more would be kept, the oldest is deleted in the same transaction, or marked for
   * expiry when {@link #snapshotTtl()} is set.
   */
  int snapshotsToKeep() default 0;

  /**
   * When set, an ISO-8601 duration such as {@code "P30D"}: older snapshots past {@link #snapshotsToKeep()}
   * are not deleted by esgen but stamped with a {@code ttl} attribute this far in the future, for
   * DynamoDB's time-to-live to remove. Empty (the default) deletes them.
   */
  String snapshotTtl() default "";

  /**
   * Where the aggregate type's streams are stored: {@link Layout#JOURNAL} (the default) or
   * {@link Layout#TIP}. The options below starting with {@code tip} apply to the tip layout only, the
   * {@code snapshot} options to the journal layout only.
   */
  Layout layout() default Layout.JOURNAL;

  /**
   * Tip layout: when the events in a stream's tip item would exceed this many bytes (DynamoDB's
   * item-size rules), they are moved ("calved") into a batch item in the same write. Between 1 and
   * 409,600; keep room below the 400 KB item limit for the snapshot the tip also holds. Every append is
   * billed on the whole tip, so the default of 2 KB keeps appends cheap; docs/layouts.md has the
   * measured curve it was chosen from.
   */
  int tipMaxBytes() default 2 * 1024;

  /**
   * Tip layout: also calve when the tip would hold more than this many events; 0 for no limit. The
   * default, 10, measured cheapest for small events (docs/layouts.md).
   */
  int tipMaxEvents() default 10;

  /**
   * Tip layout: whether every append rewrites the snapshot in the tip, so a load is one read (the
   * default). {@code false} stores events only: appends write less, loads replay every event.
   */
  boolean tipSnapshot() default true;

  /**
   * Raise it to make every stored snapshot of this type stale. esgen already ignores a snapshot whose
   * state shape or handler code changed (it fingerprints the aggregate's components and the source of
   * its creating and {@code apply} methods and the methods of the aggregate and its nested classes they
   * call); raise this when the state depends on code the fingerprint cannot see, such as a helper in
   * another class. Each
   * stream is then rebuilt from its events once, on its next load. From 1.
   */
  int snapshotVersion() default 1;

  /**
   * Whether to generate {@code <Name>AsyncRepository} beside {@code <Name>Repository}: the same
   * operations and typed lookups, answered with {@code CompletableFuture}s over a
   * {@code DynamoDbAsyncClient}, for services that keep many commands in flight without a thread each.
   * {@code events} and the reindexing operations stay with the synchronous repository.
   * Off by default, as every generated file costs compile time. Works with either {@link #layout()},
   * sending the same requests as the synchronous repository (see docs/async.md).
   *
   * <pre>{@code
   * @Aggregate(name = "bank-account", events = AccountEvent.class, async = true)
   * public record BankAccount(@AggregateId AccountId id, @Unique String email, long balanceCents) { ... }
   *
   * AsyncEventStore store = DynamoDbAsyncEventStore.create(dynamoDbAsyncClient, StoreConfig.defaults());
   * BankAccountAsyncRepository accounts = new BankAccountAsyncRepository(store);
   * accounts.transact(id, account -> account.deposit(500)).thenAccept(done -> ...);
   * }</pre>
   */
  boolean async() default false;
}
