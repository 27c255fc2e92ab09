package dev.esgen.spring.boot.app;

import dev.esgen.test.DynamoDbLocal;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/** An application as a user writes one: its own DynamoDbClient, and no esgen code besides the domain. */
@SpringBootApplication
public class ShopApplication {

  /** A client of the DynamoDB Local server shared by this JVM's tests. */
  @Bean
  DynamoDbClient dynamoDbClient() {
    return DynamoDbLocal.shared().newClient();
  }
}
