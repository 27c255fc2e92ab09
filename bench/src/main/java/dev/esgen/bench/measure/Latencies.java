package dev.esgen.bench.measure;

import java.util.Arrays;

/**
 * Per-call latencies in nanoseconds, for percentiles (nearest rank).
 *
 * <pre>{@code
 * Latencies l = new Latencies(calls);
 * l.add(System.nanoTime() - start);
 * double p99Millis = l.percentileMillis(99);
 * }</pre>
 */
public final class Latencies {

  private long[] nanos;
  private int size;

  public Latencies(int expected) {
    this.nanos = new long[Math.max(16, expected)];
  }

  public synchronized void add(long elapsedNanos) {
    if (size == nanos.length) {
      nanos = Arrays.copyOf(nanos, size * 2);
    }
    nanos[size++] = elapsedNanos;
  }

  public synchronized void addAll(Latencies other) {
    for (int i = 0; i < other.size; i++) {
      add(other.nanos[i]);
    }
  }

  public synchronized int count() {
    return size;
  }

  public synchronized double percentileMillis(double percentile) {
    return size == 0 ? Double.NaN : percentile(percentile) / 1e6;
  }

  /** The value at {@code percentile} as added (nearest rank), for series that are not times; 0 when empty. */
  public synchronized long percentile(double percentile) {
    if (size == 0) {
      return 0;
    }
    long[] sorted = Arrays.copyOf(nanos, size);
    Arrays.sort(sorted);
    int rank = (int) Math.ceil(percentile / 100.0 * size);
    return sorted[Math.min(size, Math.max(1, rank)) - 1];
  }

  public synchronized double maxMillis() {
    return percentileMillis(100);
  }
}
