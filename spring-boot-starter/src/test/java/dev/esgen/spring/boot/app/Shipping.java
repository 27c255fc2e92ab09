package dev.esgen.spring.boot.app;

import org.springframework.stereotype.Service;

/** A service of the application's own, given a generated repository by constructor injection. */
@Service
public class Shipping {

  private final OrderRepository orders;

  public Shipping(OrderRepository orders) {
    this.orders = orders;
  }

  public Order ship(OrderId id) {
    return orders.transact(id, Order::ship).state();
  }
}
