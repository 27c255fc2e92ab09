package dev.esgen.runtime.testing;

import dev.esgen.test.DynamoDbLocal;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import java.time.Duration;
import java.util.function.Consumer;
import software.amazon.awssdk.core.client.config.ClientOverrideConfiguration;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.http.nio.netty.NettyNioAsyncHttpClient;
import software.amazon.awssdk.http.nio.netty.SdkEventLoopGroup;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;

/** Asynchronous clients of {@link TestDynamo}'s DynamoDB Local, with its credentials, so they see its tables. */
public final class AsyncDynamo {

  /**
   * The Netty threads of every client made here. A client closes a group of its own gracefully, which takes
   * about two seconds; a group it was given it leaves running, so closing a test's client is immediate.
   * Daemon threads, so that the group never keeps the JVM alive.
   */
  private static final SdkEventLoopGroup EVENT_LOOPS = SdkEventLoopGroup.builder()
      .numberOfThreads(4)
      .threadFactory(runnable -> {
        Thread thread = new Thread(runnable, "async-dynamo-netty");
        thread.setDaemon(true);
        return thread;
      })
      .build();

  private AsyncDynamo() {}

  /** A new Netty-based client; close it after the test. */
  public static DynamoDbAsyncClient client(ExecutionInterceptor... interceptors) {
    return client(override -> {}, interceptors);
  }

  /**
   * A new Netty-based client whose SDK attempts time out after {@code attemptTimeout}: DynamoDB may still
   * apply a write the client gave up on. Close it after the test.
   */
  public static DynamoDbAsyncClient timingOutAfter(Duration attemptTimeout, ExecutionInterceptor... interceptors) {
    return client(override -> override.apiCallAttemptTimeout(attemptTimeout), interceptors);
  }

  private static DynamoDbAsyncClient client(
      Consumer<ClientOverrideConfiguration.Builder> settings, ExecutionInterceptor... interceptors) {
    TestDynamo.client();
    return DynamoDbAsyncClient.builder()
        .endpointOverride(DynamoDbLocal.shared().endpoint())
        .region(Region.US_EAST_1)
        .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("x", "x")))
        .httpClientBuilder(NettyNioAsyncHttpClient.builder().maxConcurrency(64).eventLoopGroup(EVENT_LOOPS))
        .overrideConfiguration(override -> {
          for (ExecutionInterceptor interceptor : interceptors) {
            override.addExecutionInterceptor(interceptor);
          }
          settings.accept(override);
        })
        .build();
  }
}
