package dev.esgen.spring.boot.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.esgen.micrometer.MicrometerStoreListener;
import dev.esgen.runtime.DynamoDbEventStore;
import dev.esgen.runtime.EventStore;
import dev.esgen.runtime.query.PageRequest;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * The whole application started as Spring Boot starts it: the starter found on the classpath, its
 * properties from the environment, the repositories injected into a service of the application's own.
 */
@SpringBootTest(properties = {
    "esgen.tables.journal=shop-journal",
    "esgen.tables.snapshot=shop-snapshot",
    "esgen.tables.tip=shop-streams",
    "esgen.provision.enabled=true",
    "esgen.retry.max-attempts=7",
    "spring.main.banner-mode=off"})
class ShopApplicationTest {

  @Autowired
  private Shipping shipping;

  @Autowired
  private OrderRepository orders;

  @Autowired
  private CartRepository carts;

  @Autowired
  private EventStore store;

  @Autowired
  private MeterRegistry registry;

  @Autowired
  private DynamoDbClient client;

  @Test
  void repositoriesAreInjectedAndWorkOnTheConfiguredTables() {
    OrderId id = OrderId.random();
    orders.create(new OrderPlaced(id, "ann", 12_50));
    assertTrue(shipping.ship(id).shipped());
    assertEquals(new Order(id, "ann", 12_50, true), orders.load(id));
    assertEquals(List.of(orders.load(id)), orders.listByCustomer("ann", PageRequest.first(10)).items().stream()
        .filter(order -> order.id().equals(id)).toList());

    carts.create(new CartOpened("cart-" + id.value()));
    carts.transact("cart-" + id.value(), cart -> cart.add("sku-1"));
    assertEquals(List.of("sku-1"), carts.load("cart-" + id.value()).skus());

    List<String> tables = client.listTables().tableNames();
    assertTrue(tables.containsAll(List.of("shop-journal", "shop-snapshot", "shop-streams")), tables.toString());
    assertEquals(7, assertInstanceOf(DynamoDbEventStore.class, store).config().retryPolicy().maxAttempts());
  }

  @Test
  void operationsShowInTheApplicationsMeterRegistry() {
    OrderId id = OrderId.random();
    orders.create(new OrderPlaced(id, "bob", 5_00));

    assertTrue(registry.get(MicrometerStoreListener.OPERATION)
        .tags("aggregate", "order", "operation", "create", "outcome", "success")
        .timer().count() >= 1);
  }
}
