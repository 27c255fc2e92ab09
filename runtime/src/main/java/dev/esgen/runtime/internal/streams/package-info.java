/**
 * How the in-process stream poller reads DynamoDB Streams: shard listing and lineage, one reader per
 * shard, checkpoints and the consumer's lease in DynamoDB. The API is
 * {@link dev.esgen.runtime.streams.StreamPoller}.
 *
 * <p>esgen's internals: not API. Public only so that esgen's own packages can reach each other; anything
 * here may change or go away in any release without notice.
 */
package dev.esgen.runtime.internal.streams;
