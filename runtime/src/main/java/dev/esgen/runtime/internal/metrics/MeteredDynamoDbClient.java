package dev.esgen.runtime.internal.metrics;

import java.util.List;
import java.util.function.Function;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbServiceClientConfiguration;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemResponse;
import software.amazon.awssdk.services.dynamodb.model.ConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.DeleteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.DeleteItemResponse;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.GetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.PutItemResponse;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.ScanRequest;
import software.amazon.awssdk.services.dynamodb.model.ScanResponse;
import software.amazon.awssdk.services.dynamodb.model.TransactGetItemsRequest;
import software.amazon.awssdk.services.dynamodb.model.TransactGetItemsResponse;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsRequest;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsResponse;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemResponse;

/**
 * The client the storage layouts talk through: sets {@code ReturnConsumedCapacity = TOTAL} on every
 * item and query request (unless the caller asked for more) and hands each response's capacity to the
 * {@link OperationRecorder}. Covers the data-plane operations esgen's layouts use; the consumer-builder
 * overloads of {@link DynamoDbClient} route through these. It does not own the wrapped client.
 */
final class MeteredDynamoDbClient implements DynamoDbClient {

  private final DynamoDbClient client;
  private final OperationRecorder recorder;

  MeteredDynamoDbClient(DynamoDbClient client, OperationRecorder recorder) {
    this.client = client;
    this.recorder = recorder;
  }

  @Override
  public GetItemResponse getItem(GetItemRequest request) {
    return send(false, client::getItem, request.returnConsumedCapacity() == null
        ? request.toBuilder().returnConsumedCapacity(ReturnConsumedCapacity.TOTAL).build() : request,
        r -> single(r.consumedCapacity()));
  }

  @Override
  public QueryResponse query(QueryRequest request) {
    return send(false, client::query, request.returnConsumedCapacity() == null
        ? request.toBuilder().returnConsumedCapacity(ReturnConsumedCapacity.TOTAL).build() : request,
        r -> single(r.consumedCapacity()));
  }

  @Override
  public ScanResponse scan(ScanRequest request) {
    return send(false, client::scan, request.returnConsumedCapacity() == null
        ? request.toBuilder().returnConsumedCapacity(ReturnConsumedCapacity.TOTAL).build() : request,
        r -> single(r.consumedCapacity()));
  }

  @Override
  public BatchGetItemResponse batchGetItem(BatchGetItemRequest request) {
    return send(false, client::batchGetItem, request.returnConsumedCapacity() == null
        ? request.toBuilder().returnConsumedCapacity(ReturnConsumedCapacity.TOTAL).build() : request,
        BatchGetItemResponse::consumedCapacity);
  }

  @Override
  public TransactGetItemsResponse transactGetItems(TransactGetItemsRequest request) {
    return send(false, client::transactGetItems, request.returnConsumedCapacity() == null
        ? request.toBuilder().returnConsumedCapacity(ReturnConsumedCapacity.TOTAL).build() : request,
        TransactGetItemsResponse::consumedCapacity);
  }

  @Override
  public PutItemResponse putItem(PutItemRequest request) {
    return send(true, client::putItem, request.returnConsumedCapacity() == null
        ? request.toBuilder().returnConsumedCapacity(ReturnConsumedCapacity.TOTAL).build() : request,
        r -> single(r.consumedCapacity()));
  }

  @Override
  public UpdateItemResponse updateItem(UpdateItemRequest request) {
    return send(true, client::updateItem, request.returnConsumedCapacity() == null
        ? request.toBuilder().returnConsumedCapacity(ReturnConsumedCapacity.TOTAL).build() : request,
        r -> single(r.consumedCapacity()));
  }

  @Override
  public DeleteItemResponse deleteItem(DeleteItemRequest request) {
    return send(true, client::deleteItem, request.returnConsumedCapacity() == null
        ? request.toBuilder().returnConsumedCapacity(ReturnConsumedCapacity.TOTAL).build() : request,
        r -> single(r.consumedCapacity()));
  }

  @Override
  public BatchWriteItemResponse batchWriteItem(BatchWriteItemRequest request) {
    return send(true, client::batchWriteItem, request.returnConsumedCapacity() == null
        ? request.toBuilder().returnConsumedCapacity(ReturnConsumedCapacity.TOTAL).build() : request,
        BatchWriteItemResponse::consumedCapacity);
  }

  @Override
  public TransactWriteItemsResponse transactWriteItems(TransactWriteItemsRequest request) {
    return send(true, client::transactWriteItems, request.returnConsumedCapacity() == null
        ? request.toBuilder().returnConsumedCapacity(ReturnConsumedCapacity.TOTAL).build() : request,
        TransactWriteItemsResponse::consumedCapacity);
  }

  @Override
  public String serviceName() {
    return client.serviceName();
  }

  @Override
  public DynamoDbServiceClientConfiguration serviceClientConfiguration() {
    return client.serviceClientConfiguration();
  }

  /** Does nothing: the store does not own the client it was given. */
  @Override
  public void close() {}

  private <Q, R> R send(
      boolean write, Function<Q, R> call, Q request, Function<R, List<ConsumedCapacity>> capacity) {
    R response;
    try {
      response = call.apply(request);
    } catch (RuntimeException e) {
      // A rejected request (a failed condition, a cancelled transaction) was still sent; DynamoDB does
      // not say in the error what it consumed.
      recorder.requestSent(List.of(), write);
      throw e;
    }
    List<ConsumedCapacity> consumed = capacity.apply(response);
    recorder.requestSent(consumed == null ? List.of() : consumed, write);
    return response;
  }

  private static List<ConsumedCapacity> single(ConsumedCapacity capacity) {
    return capacity == null ? List.of() : List.of(capacity);
  }
}
