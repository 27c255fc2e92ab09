package dev.esgen.runtime.testing;

import java.util.ArrayList;
import java.util.List;
import software.amazon.awssdk.core.SdkRequest;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.services.dynamodb.model.ConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.PutItemResponse;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsRequest;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsResponse;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemResponse;

/**
 * Asks every write (PutItem, UpdateItem, TransactWriteItems) for its consumed capacity per table and
 * index ({@code ReturnConsumedCapacity = INDEXES}) and keeps the answers, one list per request.
 */
public final class CapacityRecorder implements ExecutionInterceptor {

  private final List<List<ConsumedCapacity>> recorded = new ArrayList<>();

  @Override
  public SdkRequest modifyRequest(Context.ModifyRequest context, ExecutionAttributes attributes) {
    SdkRequest request = context.request();
    if (request instanceof TransactWriteItemsRequest r) {
      return r.toBuilder().returnConsumedCapacity(ReturnConsumedCapacity.INDEXES).build();
    } else if (request instanceof UpdateItemRequest r) {
      return r.toBuilder().returnConsumedCapacity(ReturnConsumedCapacity.INDEXES).build();
    } else if (request instanceof PutItemRequest r) {
      return r.toBuilder().returnConsumedCapacity(ReturnConsumedCapacity.INDEXES).build();
    }
    return request;
  }

  @Override
  public void afterUnmarshalling(Context.AfterUnmarshalling context, ExecutionAttributes attributes) {
    List<ConsumedCapacity> consumed = null;
    if (context.response() instanceof TransactWriteItemsResponse r) {
      consumed = r.consumedCapacity();
    } else if (context.response() instanceof UpdateItemResponse r && r.consumedCapacity() != null) {
      consumed = List.of(r.consumedCapacity());
    } else if (context.response() instanceof PutItemResponse r && r.consumedCapacity() != null) {
      consumed = List.of(r.consumedCapacity());
    }
    if (consumed != null) {
      synchronized (this) {
        recorded.add(consumed);
      }
    }
  }

  /** Runs {@code action} and returns the capacity its writes consumed, one list per write request. */
  public synchronized List<List<ConsumedCapacity>> during(Runnable action) {
    recorded.clear();
    action.run();
    List<List<ConsumedCapacity>> result = List.copyOf(recorded);
    recorded.clear();
    return result;
  }

  /** Capacity units written to global secondary indexes. */
  public static double indexUnits(List<List<ConsumedCapacity>> requests) {
    return requests.stream().flatMap(List::stream)
        .filter(ConsumedCapacity::hasGlobalSecondaryIndexes)
        .flatMap(c -> c.globalSecondaryIndexes().values().stream())
        .mapToDouble(c -> c.capacityUnits() == null ? 0 : c.capacityUnits())
        .sum();
  }

  /** Capacity units in total, tables and indexes. */
  public static double totalUnits(List<List<ConsumedCapacity>> requests) {
    return requests.stream().flatMap(List::stream)
        .mapToDouble(c -> c.capacityUnits() == null ? 0 : c.capacityUnits())
        .sum();
  }
}
