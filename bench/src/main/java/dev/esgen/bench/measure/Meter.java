package dev.esgen.bench.measure;

import java.util.List;
import java.util.concurrent.atomic.DoubleAdder;
import java.util.concurrent.atomic.LongAdder;
import software.amazon.awssdk.core.SdkRequest;
import software.amazon.awssdk.core.SdkResponse;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.Capacity;
import software.amazon.awssdk.services.dynamodb.model.ConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.GetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.PutItemResponse;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.TransactGetItemsRequest;
import software.amazon.awssdk.services.dynamodb.model.TransactGetItemsResponse;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsRequest;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsResponse;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemResponse;

/**
 * Counts the requests a client sends and the capacity DynamoDB says they consumed, without the code
 * under test knowing: it asks for {@code ReturnConsumedCapacity=INDEXES} on every data request and reads
 * the answer from the response (totals, and the write units of global secondary indexes apart). Installed the same way on esgen's client and on the floor's, so both
 * are measured alike.
 *
 * <pre>{@code
 * Meter meter = new Meter();
 * DynamoDbClient client = Clients.local(endpoint, meter);
 * Meter.Reading before = meter.read();
 * client.getItem(...);
 * Meter.Reading used = meter.read().minus(before);    // requests=1, readUnits=1.0
 * }</pre>
 *
 * <p>Requests are counted as they go on the wire, so SDK retries count too. Capacity of a request that
 * failed (a cancelled transaction, for one) is not reported by DynamoDB and so not counted.
 */
public final class Meter implements ExecutionInterceptor {

  private final LongAdder requests = new LongAdder();
  private final DoubleAdder readUnits = new DoubleAdder();
  private final DoubleAdder writeUnits = new DoubleAdder();
  private final LongAdder unreported = new LongAdder();
  private final DoubleAdder indexWriteUnits = new DoubleAdder();
  private volatile List<ConsumedCapacity> lastWrite = List.of();

  /**
   * Totals since the meter was created; subtract two readings to measure what lies between them.
   *
   * @param writeUnits all write units, global secondary indexes included
   * @param indexWriteUnits the part of {@code writeUnits} DynamoDB reports for global secondary indexes
   */
  public record Reading(long requests, double readUnits, double writeUnits, long unreported, double indexWriteUnits) {

    public Reading minus(Reading earlier) {
      return new Reading(requests - earlier.requests, readUnits - earlier.readUnits,
          writeUnits - earlier.writeUnits, unreported - earlier.unreported, indexWriteUnits - earlier.indexWriteUnits);
    }
  }

  public Reading read() {
    return new Reading(requests.sum(), readUnits.sum(), writeUnits.sum(), unreported.sum(), indexWriteUnits.sum());
  }

  /** The consumed capacity of the last write response, one entry per table, with its index breakdown. */
  public List<ConsumedCapacity> lastWrite() {
    return lastWrite;
  }

  @Override
  public SdkRequest modifyRequest(Context.ModifyRequest context, ExecutionAttributes attributes) {
    SdkRequest request = context.request();
    ReturnConsumedCapacity total = ReturnConsumedCapacity.INDEXES;
    if (request instanceof GetItemRequest r) {
      return r.toBuilder().returnConsumedCapacity(total).build();
    }
    if (request instanceof QueryRequest r) {
      return r.toBuilder().returnConsumedCapacity(total).build();
    }
    if (request instanceof TransactWriteItemsRequest r) {
      return r.toBuilder().returnConsumedCapacity(total).build();
    }
    if (request instanceof BatchGetItemRequest r) {
      return r.toBuilder().returnConsumedCapacity(total).build();
    }
    if (request instanceof TransactGetItemsRequest r) {
      return r.toBuilder().returnConsumedCapacity(total).build();
    }
    if (request instanceof PutItemRequest r) {
      return r.toBuilder().returnConsumedCapacity(total).build();
    }
    if (request instanceof UpdateItemRequest r) {
      return r.toBuilder().returnConsumedCapacity(total).build();
    }
    return request;
  }

  @Override
  public void beforeTransmission(Context.BeforeTransmission context, ExecutionAttributes attributes) {
    requests.increment();
  }

  @Override
  public void afterExecution(Context.AfterExecution context, ExecutionAttributes attributes) {
    SdkResponse response = context.response();
    if (response instanceof GetItemResponse r) {
      read(r.consumedCapacity());
    } else if (response instanceof QueryResponse r) {
      read(r.consumedCapacity());
    } else if (response instanceof BatchGetItemResponse r) {
      if (r.hasConsumedCapacity() && !r.consumedCapacity().isEmpty()) {
        r.consumedCapacity().forEach(this::read);
      } else {
        unreported.increment();
      }
    } else if (response instanceof TransactGetItemsResponse r) {
      r.consumedCapacity().forEach(this::read);
    } else if (response instanceof TransactWriteItemsResponse r) {
      written(r.consumedCapacity());
    } else if (response instanceof PutItemResponse r) {
      written(List.of(r.consumedCapacity()));
    } else if (response instanceof UpdateItemResponse r) {
      written(List.of(r.consumedCapacity()));
    }
  }

  // DynamoDB Local fills in only the total CapacityUnits; which kind they are follows from the request.
  private void read(ConsumedCapacity capacity) {
    if (capacity == null || capacity.capacityUnits() == null) {
      unreported.increment();
    } else {
      readUnits.add(capacity.readCapacityUnits() != null ? capacity.readCapacityUnits() : capacity.capacityUnits());
    }
  }

  private void written(List<ConsumedCapacity> capacities) {
    if (capacities == null || capacities.isEmpty()) {
      unreported.increment();
      return;
    }
    lastWrite = List.copyOf(capacities);
    for (ConsumedCapacity capacity : capacities) {
      if (capacity == null || capacity.capacityUnits() == null) {
        unreported.increment();
      } else {
        writeUnits.add(
            capacity.writeCapacityUnits() != null ? capacity.writeCapacityUnits() : capacity.capacityUnits());
        if (capacity.hasGlobalSecondaryIndexes()) {
          for (Capacity index : capacity.globalSecondaryIndexes().values()) {
            indexWriteUnits.add(index.capacityUnits() != null ? index.capacityUnits() : 0);
          }
        }
      }
    }
  }
}
