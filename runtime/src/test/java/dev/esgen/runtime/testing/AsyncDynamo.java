package dev.esgen.runtime.testing;

import dev.esgen.test.DynamoDbLocal;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.http.nio.netty.NettyNioAsyncHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;

/** Asynchronous clients of {@link TestDynamo}'s DynamoDB Local, with its credentials, so they see its tables. */
public final class AsyncDynamo {

  private AsyncDynamo() {}

  /** A new Netty-based client; close it after the test. */
  public static DynamoDbAsyncClient client(ExecutionInterceptor... interceptors) {
    TestDynamo.client();
    return DynamoDbAsyncClient.builder()
        .endpointOverride(DynamoDbLocal.shared().endpoint())
        .region(Region.US_EAST_1)
        .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("x", "x")))
        .httpClientBuilder(NettyNioAsyncHttpClient.builder().maxConcurrency(64))
        .overrideConfiguration(c -> {
          for (ExecutionInterceptor interceptor : interceptors) {
            c.addExecutionInterceptor(interceptor);
          }
        })
        .build();
  }
}
