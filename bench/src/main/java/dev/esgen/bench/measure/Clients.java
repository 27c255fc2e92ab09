package dev.esgen.bench.measure;

import java.net.URI;
import java.util.Optional;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/** Builds the benchmark's DynamoDB Local clients, all configured alike (as {@code ExampleApp} does). */
public final class Clients {

  private Clients() {}

  /** A client that reports to {@code meter}, or an unmetered one for untimed setup when empty. */
  public static DynamoDbClient local(URI endpoint, Optional<Meter> meter) {
    return DynamoDbClient.builder()
        .endpointOverride(endpoint)
        .region(Region.US_EAST_1)
        .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("local", "local")))
        .httpClientBuilder(UrlConnectionHttpClient.builder())
        .overrideConfiguration(c -> meter.ifPresent(c::addExecutionInterceptor))
        .build();
  }
}
