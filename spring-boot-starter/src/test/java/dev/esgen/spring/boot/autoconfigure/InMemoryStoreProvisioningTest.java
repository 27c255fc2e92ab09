package dev.esgen.spring.boot.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import dev.esgen.runtime.EventStore;
import dev.esgen.spring.boot.app.OrderId;
import dev.esgen.spring.boot.app.OrderPlaced;
import dev.esgen.spring.boot.app.OrderRepository;
import dev.esgen.testkit.memory.InMemoryEventStore;
import java.net.URI;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * An application's test that swaps the EventStore for esgen-testkit's in-memory one, while its
 * configuration (a dev profile, application.properties) has {@code esgen.provision.enabled=true}. The
 * in-memory store has no tables: provisioning must leave DynamoDB alone, whether or not the application
 * still defines a DynamoDbClient bean (which may point at a real account).
 */
class InMemoryStoreProvisioningTest {

  private final ApplicationContextRunner runner = new ApplicationContextRunner()
      .withConfiguration(AutoConfigurations.of(EsgenAutoConfiguration.class))
      .withUserConfiguration(ShopDomain.class)
      .withPropertyValues("esgen.provision.enabled=true", "esgen.retry.deadline=1s")
      .withBean("inMemoryStore", EventStore.class, InMemoryEventStore::create);

  @Test
  void anInMemoryStoreSendsNoRequestToTheApplicationsDynamoDbClient() {
    // The application's client, pointing where nothing answers: any request fails the start.
    runner.withBean(DynamoDbClient.class, () -> DynamoDbClient.builder()
            .endpointOverride(URI.create("http://127.0.0.1:9"))
            .region(Region.US_EAST_1)
            .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("x", "x")))
            .build())
        .run(context -> {
          assertThat(context).hasNotFailed();
          OrderRepository orders = context.getBean(OrderRepository.class);
          OrderId id = OrderId.random();
          orders.create(new OrderPlaced(id, "ann", 1_00));
          assertThat(orders.load(id).customer()).isEqualTo("ann");
        });
  }

  @Test
  void anInMemoryStoreStartsWithoutADynamoDbClientBean() {
    runner.run(context -> {
      assertThat(context).hasNotFailed();
      assertThat(context.getBean(OrderRepository.class)).isNotNull();
    });
  }
}
