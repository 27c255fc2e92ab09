/**
 * The change feed: projections that receive every stream's events in seq_nr order, with no gap and no
 * duplicate, from DynamoDB Streams and from the tables themselves.
 *
 * <p>Users write a {@link dev.esgen.runtime.feed.Projection} (at least once) or a
 * {@link dev.esgen.runtime.feed.TransactionalProjection} (exactly once, for read models in DynamoDB),
 * register it on a {@link dev.esgen.runtime.feed.ChangeFeed}, and hand the feed to a transport, which
 * calls {@link dev.esgen.runtime.feed.StreamRecordsHandler#handle} with each batch of stream records.
 * See {@code docs/projections.md}.
 *
 * <pre>{@code
 * new TableProvisioner(client, config).enableChangeFeed();
 * ChangeFeed feed = ChangeFeed.builder(store)
 *     .projection("statements", accounts.definition(), event -> statements.add(event))
 *     .build();
 * feed.replay("statements");
 * }</pre>
 */
package dev.esgen.runtime.feed;
