/**
 * esgen's internals: not API. Public only so that esgen's own packages can reach each other; anything
 * here may change or go away in any release without notice. Users touch {@code dev.esgen.runtime},
 * {@code .config}, {@code .repository}, {@code .error}, {@code .query}, {@code .history},
 * {@code .metrics}, {@code .provision} and {@code .feed}; generated code also uses {@code .aggregate},
 * {@code .codec} and {@code .index}.
 *
 * <p>This package is the change feed's machinery: reading event items out of stream records and scanned
 * tables ({@link dev.esgen.runtime.internal.feed.EventItems}), the positions table
 * ({@link dev.esgen.runtime.internal.feed.PositionStore}), delivering one stream to one projection
 * ({@link dev.esgen.runtime.internal.feed.StreamDeliverer}), a batch's deliveries with retries
 * ({@link dev.esgen.runtime.internal.feed.DeliveryRounds}) and the replay
 * ({@link dev.esgen.runtime.internal.feed.TableReplay}).
 */
package dev.esgen.runtime.internal.feed;
