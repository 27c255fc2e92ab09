package dev.esgen.bench.e2e;

import dev.esgen.bench.domain.Cart;
import dev.esgen.bench.domain.CartRepository;
import dev.esgen.bench.measure.Meter;
import java.util.Collections;

/** The end-to-end operations through the generated {@link CartRepository}. */
public final class EsgenSide implements Side {

  private final CartRepository carts;
  private final Meter meter;

  public EsgenSide(CartRepository carts, Meter meter) {
    this.carts = carts;
    this.meter = meter;
  }

  @Override
  public String name() {
    return "esgen";
  }

  @Override
  public Meter meter() {
    return meter;
  }

  @Override
  public void create(Fixture stream) {
    carts.create(stream.opened());
  }

  @Override
  public void append(Fixture stream, int events) {
    carts.append(stream.id(), 1, Collections.nCopies(events, SmallEvent.EVENT));
  }

  @Override
  public void load(Fixture stream) {
    Cart cart = carts.load(stream.id());
    if (cart.owner() == null) {
      throw new IllegalStateException("loaded a cart without owner: " + stream.aid());
    }
  }

  @Override
  public void transact(Fixture stream) {
    carts.transact(stream.id(), cart -> cart.add(SmallEvent.EVENT.sku(), SmallEvent.EVENT.quantity(),
        SmallEvent.EVENT.priceCents()));
  }
}
