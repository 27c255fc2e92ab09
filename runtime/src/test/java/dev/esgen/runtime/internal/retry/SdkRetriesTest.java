package dev.esgen.runtime.internal.retry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.esgen.runtime.config.RetryPolicy;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AnonymousCredentialsProvider;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbClientBuilder;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsRequest;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsResponse;

/** Whether requests must switch the SDK's retries off depends on how the user built the client. */
class SdkRetriesTest {

  @Test
  void onlyAClientThatSaysItMakesOneAttemptIsTrustedNotToRetry() {
    try (DynamoDbClient plain = builder().build();
        DynamoDbClient doNotRetry = builder().overrideConfiguration(o -> o.retryStrategy(AwsRetryStrategy.doNotRetry()))
            .build();
        DynamoDbClient oneAttempt = builder().overrideConfiguration(o -> o.retryStrategy(
            AwsRetryStrategy.standardRetryStrategy().toBuilder().maxAttempts(1).build())).build();
        DynamoDbClient threeAttempts = builder().overrideConfiguration(o -> o.retryStrategy(
            AwsRetryStrategy.standardRetryStrategy().toBuilder().maxAttempts(3).build())).build()) {
      assertTrue(SdkRetries.retries(plain::serviceClientConfiguration), "the SDK's default retries");
      assertFalse(SdkRetries.retries(doNotRetry::serviceClientConfiguration));
      assertFalse(SdkRetries.retries(oneAttempt::serviceClientConfiguration));
      assertTrue(SdkRetries.retries(threeAttempts::serviceClientConfiguration));
      DynamoDbClient wrapper = new DynamoDbClient() {
        @Override
        public String serviceName() {
          return doNotRetry.serviceName();
        }

        @Override
        public void close() {}
      };
      assertTrue(SdkRetries.retries(wrapper::serviceClientConfiguration), "a client that cannot tell may retry");
    }
  }

  @Test
  void everyTransactionGoesOutWithAClientRequestTokenAndACallersOwnIsKept() {
    List<TransactWriteItemsRequest> sent = new ArrayList<>();
    DynamoDbClient recording = new DynamoDbClient() {
      @Override
      public TransactWriteItemsResponse transactWriteItems(TransactWriteItemsRequest request) {
        sent.add(request);
        return TransactWriteItemsResponse.builder().build();
      }

      @Override
      public String serviceName() {
        return "dynamodb";
      }

      @Override
      public void close() {}
    };
    RetryingDynamoDbClient client = new RetryingDynamoDbClient(recording, new RetryBudgets(RetryPolicy.defaults()));

    client.transactWriteItems(b -> b.transactItems(List.of()));
    client.transactWriteItems(b -> b.transactItems(List.of()));
    client.transactWriteItems(b -> b.clientRequestToken("callers-own"));
    client.transactWriteItems(TransactWriteItemsRequest.builder().build());

    assertEquals(4, sent.size());
    UUID.fromString(sent.get(0).clientRequestToken());
    assertNotEquals(sent.get(0).clientRequestToken(), sent.get(1).clientRequestToken());
    assertEquals("callers-own", sent.get(2).clientRequestToken());
    UUID.fromString(sent.get(3).clientRequestToken());
  }

  private static DynamoDbClientBuilder builder() {
    return DynamoDbClient.builder()
        .endpointOverride(URI.create("http://127.0.0.1:1"))
        .region(Region.US_EAST_1)
        .credentialsProvider(AnonymousCredentialsProvider.create());
  }
}
