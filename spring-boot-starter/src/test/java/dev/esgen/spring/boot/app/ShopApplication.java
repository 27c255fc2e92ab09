package dev.esgen.spring.boot.app;

import dev.esgen.test.DynamoDbLocal;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/** An application as a user writes one: its own DynamoDbClient, and no esgen code besides the domain. */
@SpringBootApplication
public class ShopApplication {

  @Bean
  DynamoDbClient dynamoDbClient() {
    return localClient();
  }

  /** A client of the DynamoDB Local server shared by this JVM's tests. */
  public static DynamoDbClient localClient() {
    return DynamoDbClient.builder()
        .endpointOverride(DynamoDbLocal.shared().endpoint())
        .region(Region.US_EAST_1)
        .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("local", "local")))
        .httpClientBuilder(UrlConnectionHttpClient.builder())
        .build();
  }
}
