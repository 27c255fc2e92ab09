package dev.esgen.runtime.faults;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.esgen.runtime.error.FailureKind;
import dev.esgen.runtime.internal.retry.Failures;
import dev.esgen.runtime.testing.TestDynamo;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.Put;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsRequest;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;

/**
 * The injector itself: each fault reaches the caller as the failure it stands for, esgen's classifier
 * reads it as intended, and DynamoDB applied the request exactly when the fault says so.
 */
class FaultInjectorTest {

  @ParameterizedTest
  @EnumSource(Fault.class)
  void eachFaultIsClassifiedAsIntendedAndAppliedExactlyWhenItSaysSo(Fault fault) {
    FaultInjector faults = FaultInjector.builder(1).build();
    AtomicBoolean storedBeforeTheCallerHeard = new AtomicBoolean();
    Map<String, AttributeValue> item = probe();
    faults.onLostResponse(request -> storedBeforeTheCallerHeard.set(stored(item)));
    DynamoDbClient client = withoutSdkRetries(faults);
    Runnable put;
    if (fault.transactionsOnly()) {
      faults.enqueue(TransactWriteItemsRequest.class, fault);
      put = () -> client.transactWriteItems(b -> b.transactItems(
          TransactWriteItem.builder().put(Put.builder().tableName("snapshot").item(item).build()).build()));
    } else {
      faults.enqueue(PutItemRequest.class, fault);
      put = () -> client.putItem(b -> b.tableName("snapshot").item(item));
    }

    RuntimeException failure = assertThrows(RuntimeException.class, put::run);

    assertEquals(fault.applied(), stored(item), "applied");
    assertEquals(expectedKind(fault), Failures.classify(failure), failure.toString());
    assertEquals(1, faults.injected().get(fault));
    assertEquals(1, faults.injectedTotal());
    assertEquals(fault.applied() ? 1 : 0, faults.appliedWrites());
    assertEquals(fault == Fault.LOST_RESPONSE_AFTER_OTHERS, storedBeforeTheCallerHeard.get());
    switch (fault) {
      case LOST_RESPONSE, LOST_RESPONSE_AFTER_OTHERS, SERVER_ERROR -> {
        DynamoDbException server = assertInstanceOf(DynamoDbException.class, failure);
        assertEquals(500, server.statusCode());
        assertEquals("InternalServerError", Failures.describe(server));
      }
      case TIMEOUT_AFTER_APPLY, TIMEOUT_BEFORE_SEND -> assertInstanceOf(SdkClientException.class, failure);
      case THROTTLED -> assertEquals("ProvisionedThroughputExceededException", Failures.describe(failure));
      case TRANSACTION_CONFLICT, THROTTLED_CANCELLATION -> {
        TransactionCanceledException cancelled = assertInstanceOf(TransactionCanceledException.class, failure);
        List<String> codes = cancelled.cancellationReasons().stream().map(r -> r.code()).toList();
        assertEquals(List.of(fault == Fault.TRANSACTION_CONFLICT ? "TransactionConflict" : "ThrottlingError"), codes);
      }
      default -> throw new AssertionError(fault);
    }
    // The scripted fault was used up: the same request goes through now.
    client.putItem(b -> b.tableName("snapshot").item(probe()));
    assertEquals(1, faults.injectedTotal());
  }

  @Test
  void randomFaultsFollowTheRatesAndTheSeed() {
    long first = randomFaults(7);
    assertEquals(first, randomFaults(7), "the same seed injects the same faults on one thread");
    // 300 reads at a rate of 0.3: 90 expected; far outside 55..125 only with a broken injector.
    assertTrue(first >= 55 && first <= 125, "injected " + first);
  }

  @Test
  void streaksStartOnWritesLastAndEndWhenTheInjectorIsDisabled() {
    FaultInjector faults = FaultInjector.builder(3).streaks(1.0, 50).build();
    DynamoDbClient client = withoutSdkRetries(faults);
    GetItemRequest get = GetItemRequest.builder().tableName("snapshot").key(probeKey()).build();
    client.getItem(get);
    assertEquals(0, faults.streaks(), "a read starts no streak");
    assertThrows(RuntimeException.class, () -> client.putItem(b -> b.tableName("snapshot").item(probe())));
    assertEquals(1, faults.streaks());
    for (int k = 0; k < 5; k++) {
      assertThrows(RuntimeException.class, () -> client.getItem(get));
    }
    assertEquals(6, faults.injectedTotal());
    faults.enabled(false);
    client.getItem(get);
    client.getItem(get);
    faults.enabled(true);
    faults.enqueue(GetItemRequest.class, Fault.TIMEOUT_BEFORE_SEND);
    // The old streak's 49 more faults (server errors or throttling) would come before the scripted one.
    assertInstanceOf(SdkClientException.class, assertThrows(RuntimeException.class, () -> client.getItem(get)));
    assertEquals(1, faults.injected().get(Fault.TIMEOUT_BEFORE_SEND));
  }

  @Test
  void alwaysFaultsLastUntilCleared() {
    FaultInjector faults = FaultInjector.builder(5).build().always(GetItemRequest.class, Fault.SERVER_ERROR);
    DynamoDbClient client = withoutSdkRetries(faults);
    GetItemRequest get = GetItemRequest.builder().tableName("snapshot").key(probeKey()).build();
    for (int k = 0; k < 3; k++) {
      assertThrows(DynamoDbException.class, () -> client.getItem(get));
    }
    client.putItem(b -> b.tableName("snapshot").item(probe()));
    faults.clear();
    client.getItem(get);
    assertEquals(3, faults.injected().get(Fault.SERVER_ERROR));
    assertFalse(faults.injected().get(Fault.THROTTLED) > 0);
  }

  private static long randomFaults(long seed) {
    FaultInjector faults = FaultInjector.builder(seed).rate(Fault.SERVER_ERROR, 0.15).rate(Fault.THROTTLED, 0.15).build();
    DynamoDbClient client = withoutSdkRetries(faults);
    GetItemRequest get = GetItemRequest.builder().tableName("snapshot").key(probeKey()).build();
    for (int k = 0; k < 300; k++) {
      try {
        client.getItem(get);
      } catch (DynamoDbException expected) {
        // injected
      }
    }
    assertEquals(faults.injectedTotal(),
        faults.injected().get(Fault.SERVER_ERROR) + faults.injected().get(Fault.THROTTLED));
    return faults.injectedTotal();
  }

  private static FailureKind expectedKind(Fault fault) {
    return switch (fault) {
      case THROTTLED, TRANSACTION_CONFLICT, THROTTLED_CANCELLATION -> FailureKind.TRANSIENT;
      default -> FailureKind.OUTCOME_UNKNOWN;
    };
  }

  /** A client with the SDK's retries off, so each call is one attempt and the fault reaches the caller. */
  private static DynamoDbClient withoutSdkRetries(FaultInjector faults) {
    return FaultyDynamo.clientWithoutSdkRetries(faults);
  }

  private static Map<String, AttributeValue> probeKey() {
    return Map.of("pkey", AttributeValue.fromS("fault-probe#" + UUID.randomUUID()), "skey", AttributeValue.fromS("probe"));
  }

  private static Map<String, AttributeValue> probe() {
    Map<String, AttributeValue> item = new java.util.HashMap<>(probeKey());
    item.put("aid", AttributeValue.fromS("probe"));
    return item;
  }

  private static boolean stored(Map<String, AttributeValue> item) {
    Map<String, AttributeValue> key = Map.of("pkey", item.get("pkey"), "skey", item.get("skey"));
    return TestDynamo.client().getItem(b -> b.tableName("snapshot").key(key).consistentRead(true)).hasItem();
  }
}
