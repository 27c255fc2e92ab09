package dev.esgen.bench.measure;

import java.net.URI;
import java.util.Optional;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.http.nio.netty.NettyNioAsyncHttpClient;
import software.amazon.awssdk.http.apache5.Apache5HttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * Builds the benchmark's DynamoDB Local clients, all configured alike and without the SDK's own retries, as
 * docs/operations.md recommends for a client esgen sends through: esgen retries itself, and on a client
 * that already makes one attempt it need not switch retries off per request. The floor's client is the
 * same, so both sides send identically configured requests.
 *
 * <p>Synchronous clients run on the SDK's default HTTP client, Apache 5: the JDK's {@code HttpURLConnection}
 * under {@code UrlConnectionHttpClient} probes a reused connection with a read that waits up to a
 * millisecond before every request, which hid esgen's own cost under a wait both sides paid.
 */
public final class Clients {

  private Clients() {}

  /** A client that reports to {@code meter}, or an unmetered one for untimed setup when empty. */
  public static DynamoDbClient local(URI endpoint, Optional<Meter> meter) {
    return DynamoDbClient.builder()
        .endpointOverride(endpoint)
        .region(Region.US_EAST_1)
        .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("local", "local")))
        .httpClientBuilder(Apache5HttpClient.builder())
        .overrideConfiguration(c -> {
          c.retryStrategy(AwsRetryStrategy.doNotRetry());
          meter.ifPresent(c::addExecutionInterceptor);
        })
        .build();
  }

  /**
   * An asynchronous client configured as {@link #local}, on Netty with {@code maxConcurrency} connections:
   * at least as many as commands in flight, so that no request waits for a connection (docs/async.md).
   */
  public static DynamoDbAsyncClient localAsync(URI endpoint, Optional<Meter> meter, int maxConcurrency) {
    return DynamoDbAsyncClient.builder()
        .endpointOverride(endpoint)
        .region(Region.US_EAST_1)
        .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("local", "local")))
        .httpClientBuilder(NettyNioAsyncHttpClient.builder().maxConcurrency(maxConcurrency))
        .overrideConfiguration(c -> {
          c.retryStrategy(AwsRetryStrategy.doNotRetry());
          meter.ifPresent(c::addExecutionInterceptor);
        })
        .build();
  }
}
