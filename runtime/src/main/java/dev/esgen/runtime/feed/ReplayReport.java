package dev.esgen.runtime.feed;

/**
 * What a {@link ChangeFeed#replay} delivered: the streams in which the projection's position moved and
 * the events it took. A replay of a projection that is up to date reports zeros.
 *
 * <pre>{@code
 * ReplayReport report = feed.replay("balances");
 * log.info("balances caught up: {} events in {} streams", report.events(), report.streams());
 * }</pre>
 *
 * @param projection the projection's name
 * @param streams streams in which the projection took at least one event
 * @param events events the projection took
 */
public record ReplayReport(String projection, long streams, long events) {}
