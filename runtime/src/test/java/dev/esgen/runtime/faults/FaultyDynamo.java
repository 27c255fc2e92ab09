package dev.esgen.runtime.faults;

import dev.esgen.runtime.DynamoDbEventStore;
import dev.esgen.runtime.config.RetryPolicy;
import dev.esgen.runtime.config.StoreConfig;
import dev.esgen.runtime.metrics.StoreListener;
import dev.esgen.runtime.testing.TestDynamo;
import dev.esgen.test.DynamoDbLocal;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbClientBuilder;

/** Clients and stores on the shared DynamoDB Local whose requests go through a {@link FaultInjector}. */
final class FaultyDynamo {

  private FaultyDynamo() {}

  /**
   * A client of the shared DynamoDB Local with {@code faults} on every request. Its own retry settings are
   * the SDK's defaults, as a user's client would have them: esgen must switch them off per request.
   */
  static DynamoDbClient client(FaultInjector faults) {
    return builder().overrideConfiguration(c -> c.addExecutionInterceptor(faults)).build();
  }

  /** A client with {@code faults} and the SDK's retries off: each call is one attempt. */
  static DynamoDbClient clientWithoutSdkRetries(FaultInjector faults) {
    return builder()
        .overrideConfiguration(c -> c.addExecutionInterceptor(faults).retryStrategy(AwsRetryStrategy.doNotRetry()))
        .build();
  }

  private static DynamoDbClientBuilder builder() {
    TestDynamo.client(); // starts DynamoDB Local and creates the tables
    return DynamoDbClient.builder()
        .endpointOverride(DynamoDbLocal.shared().endpoint())
        .region(Region.US_EAST_1)
        .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("x", "x")))
        .httpClient(UrlConnectionHttpClient.create());
  }

  static DynamoDbEventStore store(DynamoDbClient client, RetryPolicy policy) {
    return store(client, policy, StoreListener.NONE);
  }

  static DynamoDbEventStore store(DynamoDbClient client, RetryPolicy policy, StoreListener listener) {
    return DynamoDbEventStore.create(client, StoreConfig.defaults().withRetryPolicy(policy).withListener(listener));
  }
}
