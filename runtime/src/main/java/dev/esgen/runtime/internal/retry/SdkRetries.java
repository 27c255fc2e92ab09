package dev.esgen.runtime.internal.retry;

import java.util.Optional;
import java.util.function.Supplier;
import software.amazon.awssdk.awscore.AwsRequestOverrideConfiguration;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.core.SdkPlugin;
import software.amazon.awssdk.services.dynamodb.DynamoDbServiceClientConfiguration;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbRequest;

/**
 * Switches the AWS SDK's own retries off on the requests of one client, for the synchronous and the
 * asynchronous retrying client alike: esgen retries in one place. Only a client built with retries needs
 * it, and only there is it done, since the per-request plugin makes the SDK rebuild its client
 * configuration for every request.
 *
 * <pre>{@code
 * SdkRetries sdkRetries = SdkRetries.of(client::serviceClientConfiguration);
 * GetItemResponse response = client.getItem(sdkRetries.off(request));
 * }</pre>
 */
final class SdkRetries {

  private static final SdkPlugin NO_SDK_RETRIES =
      config -> config.overrideConfiguration(override -> override.retryStrategy(AwsRetryStrategy.doNotRetry()));

  private final boolean clientRetries;

  private SdkRetries(boolean clientRetries) {
    this.clientRetries = clientRetries;
  }

  /** For the client whose configuration {@code configuration} gives. */
  static SdkRetries of(Supplier<DynamoDbServiceClientConfiguration> configuration) {
    return new SdkRetries(retries(configuration));
  }

  /**
   * Whether the client whose configuration {@code configuration} gives would retry a failed request
   * itself; true unless it says it makes one attempt.
   */
  static boolean retries(Supplier<DynamoDbServiceClientConfiguration> configuration) {
    try {
      return configuration.get().overrideConfiguration().retryStrategy()
          .map(strategy -> strategy.maxAttempts() != 1)
          .orElse(true);
    } catch (UnsupportedOperationException unknown) {
      // A client that is not the SDK's own (a wrapper) may not tell; switch retries off per request.
      return true;
    }
  }

  /** Whether the client retries by itself, so that every request it sends must switch that off. */
  boolean clientRetries() {
    return clientRetries;
  }

  /**
   * {@code request} as it is sent: with the SDK's own retries switched off by a per-request plugin when
   * the client was built with them, and unchanged otherwise.
   */
  @SuppressWarnings("unchecked") // toBuilder().build() returns a request of the same class
  <R extends DynamoDbRequest> R off(R request) {
    if (!clientRetries) {
      return request;
    }
    return (R) request.toBuilder().overrideConfiguration(withoutSdkRetries(request.overrideConfiguration())).build();
  }

  /** {@code existing}, or a request's configuration of its own, with the SDK's retries switched off. */
  static AwsRequestOverrideConfiguration withoutSdkRetries(Optional<AwsRequestOverrideConfiguration> existing) {
    return existing.map(AwsRequestOverrideConfiguration::toBuilder)
        .orElseGet(AwsRequestOverrideConfiguration::builder)
        .addPlugin(NO_SDK_RETRIES)
        .build();
  }
}
