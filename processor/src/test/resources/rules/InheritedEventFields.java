package fixture;

import dev.esgen.annotations.Aggregate;
import dev.esgen.annotations.AggregateId;
import dev.esgen.annotations.DomainEvents;

@DomainEvents
abstract sealed class ShopEvent permits ShopOpened, Sale {}

final class ShopOpened extends ShopEvent {
  public String id;

  public ShopOpened() {}
}

abstract sealed class Sale extends ShopEvent permits Sold, Refunded {
  public long cents;
}

final class Sold extends Sale {
  public Sold() {}
}

final class Refunded extends Sale {
  public Refunded() {}
}

abstract class Books {
  public long takings;
}

@Aggregate(name = "shop", events = ShopEvent.class)
final class Shop extends Books {
  @AggregateId public String id;

  public Shop() {}

  static Shop open(ShopOpened e) {
    Shop shop = new Shop();
    shop.id = e.id;
    return shop;
  }

  Shop apply(Sale e) {
    return this;
  }
}
