package dev.esgen.runtime.testing;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import software.amazon.awssdk.core.SdkRequest;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.DeleteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.ScanRequest;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsRequest;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;

/**
 * Records every request a client sends as the IAM actions DynamoDB checks it as, one string per action and
 * resource: {@code GetItem snapshot}, {@code Query streams/index/esgen-tip-listing}, and for a transaction
 * {@code PutItem journal (tx)} per action in it. For tests that check the permissions the docs list.
 */
public final class RequestLog implements ExecutionInterceptor {

  private final List<String> actions = new ArrayList<>();

  @Override
  public synchronized void beforeTransmission(Context.BeforeTransmission context, ExecutionAttributes attributes) {
    SdkRequest request = context.request();
    if (request instanceof GetItemRequest r) {
      actions.add("GetItem " + r.tableName() + (Boolean.TRUE.equals(r.consistentRead()) ? "" : " (eventual)"));
    } else if (request instanceof QueryRequest r) {
      actions.add("Query " + r.tableName() + (r.indexName() == null ? "" : "/index/" + r.indexName())
          + (Boolean.TRUE.equals(r.consistentRead()) ? "" : " (eventual)"));
    } else if (request instanceof BatchGetItemRequest r) {
      r.requestItems().forEach((table, keys) -> actions.add("BatchGetItem " + table
          + (Boolean.TRUE.equals(keys.consistentRead()) ? "" : " (eventual)")));
    } else if (request instanceof PutItemRequest r) {
      actions.add("PutItem " + r.tableName());
    } else if (request instanceof UpdateItemRequest r) {
      actions.add("UpdateItem " + r.tableName());
    } else if (request instanceof DeleteItemRequest r) {
      actions.add("DeleteItem " + r.tableName());
    } else if (request instanceof ScanRequest r) {
      actions.add("Scan " + r.tableName());
    } else if (request instanceof TransactWriteItemsRequest r) {
      for (TransactWriteItem item : r.transactItems()) {
        if (item.put() != null) {
          actions.add("PutItem " + item.put().tableName() + " (tx)");
        } else if (item.update() != null) {
          actions.add("UpdateItem " + item.update().tableName() + " (tx)");
        } else if (item.delete() != null) {
          actions.add("DeleteItem " + item.delete().tableName() + " (tx)");
        } else if (item.conditionCheck() != null) {
          actions.add("ConditionCheckItem " + item.conditionCheck().tableName() + " (tx)");
        }
      }
    } else {
      actions.add(request.getClass().getSimpleName());
    }
  }

  public synchronized void reset() {
    actions.clear();
  }

  /** The actions since the last reset, in the order sent. */
  public synchronized List<String> actions() {
    return List.copyOf(actions);
  }

  /** The distinct actions since the last reset, sorted. */
  public synchronized TreeSet<String> distinct() {
    return new TreeSet<>(actions);
  }
}
