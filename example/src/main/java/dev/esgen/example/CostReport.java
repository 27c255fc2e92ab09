package dev.esgen.example;

import dev.esgen.runtime.metrics.OperationMetrics;
import dev.esgen.runtime.metrics.StoreListener;
import java.util.Map;
import java.util.TreeMap;

/**
 * Adds up what each repository operation cost, per aggregate type and operation, from the store's
 * metrics hook, and prints it as a table. Safe to share between threads.
 */
final class CostReport implements StoreListener {

  private final Map<String, Totals> byOperation = new TreeMap<>();

  @Override
  public synchronized void onOperation(OperationMetrics metrics) {
    byOperation.computeIfAbsent(metrics.aggregateType() + " " + metrics.operation(), k -> new Totals()).add(metrics);
  }

  synchronized String table() {
    StringBuilder table = new StringBuilder(String.format("%-28s %6s %9s %9s %9s%n",
        "operation", "calls", "requests", "RCU", "WCU"));
    byOperation.forEach((operation, totals) -> table.append(String.format("%-28s %6d %9.1f %9.1f %9.1f%n",
        operation, totals.calls, (double) totals.requests / totals.calls, totals.readUnits / totals.calls,
        totals.writeUnits / totals.calls)));
    return table.append("(requests and capacity units per call, as DynamoDB reported them)").toString();
  }

  private static final class Totals {
    private int calls;
    private long requests;
    private double readUnits;
    private double writeUnits;

    void add(OperationMetrics metrics) {
      calls++;
      requests += metrics.requests();
      readUnits += metrics.readCapacityUnits();
      writeUnits += metrics.writeCapacityUnits();
    }
  }
}
