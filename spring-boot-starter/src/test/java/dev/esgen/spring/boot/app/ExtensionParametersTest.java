package dev.esgen.spring.boot.app;

import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.esgen.runtime.DynamoDbEventStore;
import dev.esgen.runtime.EventStore;
import dev.esgen.test.DynamoDbLocalExtension;
import dev.esgen.testkit.junit.Backend;
import dev.esgen.testkit.junit.EsgenTest;
import dev.esgen.testkit.memory.InMemoryEventStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.ApplicationContext;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * A Spring Boot test that also uses esgen's extensions: a parameter Spring is asked for ({@code @Autowired},
 * {@code @Qualifier}) is the application's bean, an unannotated one esgen's, and JUnit finds no competing
 * resolvers.
 */
@SpringBootTest(properties = {
    "esgen.tables.journal=shop-journal",
    "esgen.tables.snapshot=shop-snapshot",
    "esgen.tables.tip=shop-streams",
    "esgen.provision.enabled=true",
    "spring.main.banner-mode=off"})
@EsgenTest(backend = Backend.IN_MEMORY)
@ExtendWith(DynamoDbLocalExtension.class)
class ExtensionParametersTest {

  @Test
  void anAutowiredStoreIsTheApplicationsAndAPlainOneTheTestsOwn(
      @Autowired EventStore application, EventStore inMemory, @Autowired ApplicationContext context) {
    assertSame(context.getBean(EventStore.class), application);
    assertInstanceOf(DynamoDbEventStore.class, application);
    assertInstanceOf(InMemoryEventStore.class, inMemory);
  }

  @Test
  void aQualifiedClientIsTheApplicationsAndAPlainOneTheExtensionsOwn(
      @Qualifier("dynamoDbClient") DynamoDbClient application, DynamoDbClient local,
      @Autowired ApplicationContext context) {
    assertSame(context.getBean(DynamoDbClient.class), application);
    assertNotSame(application, local);
  }
}
