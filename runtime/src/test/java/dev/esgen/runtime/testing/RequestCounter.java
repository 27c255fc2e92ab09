package dev.esgen.runtime.testing;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.core.interceptor.SdkExecutionAttribute;

/** Counts the HTTP requests a client sends, per DynamoDB operation (SDK retries count too). */
public final class RequestCounter implements ExecutionInterceptor {

  private final Map<String, AtomicInteger> counts = new ConcurrentHashMap<>();

  @Override
  public void beforeTransmission(Context.BeforeTransmission context, ExecutionAttributes attributes) {
    String operation = attributes.getAttribute(SdkExecutionAttribute.OPERATION_NAME);
    counts.computeIfAbsent(operation, k -> new AtomicInteger()).incrementAndGet();
  }

  public void reset() {
    counts.clear();
  }

  /** Requests per operation since the last reset, e.g. {@code {GetItem=1, Query=1}}. */
  public Map<String, Integer> snapshot() {
    Map<String, Integer> copy = new TreeMap<>();
    counts.forEach((operation, count) -> copy.put(operation, count.get()));
    return copy;
  }

  public int total() {
    return counts.values().stream().mapToInt(AtomicInteger::get).sum();
  }

  public int of(String operation) {
    AtomicInteger count = counts.get(operation);
    return count == null ? 0 : count.get();
  }
}
