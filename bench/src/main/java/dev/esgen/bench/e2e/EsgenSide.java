package dev.esgen.bench.e2e;

import dev.esgen.bench.domain.Cart;
import dev.esgen.bench.domain.CartEvent;
import dev.esgen.bench.domain.CartId;
import dev.esgen.bench.measure.Meter;
import dev.esgen.runtime.query.Page;
import dev.esgen.runtime.query.PageRequest;
import dev.esgen.runtime.repository.EventSourcedRepository;
import java.util.Collections;
import java.util.Map;
import java.util.Optional;

/** The end-to-end operations through a repository: the generated {@code CartRepository} or a layout variant. */
public final class EsgenSide implements Side {

  /** The lookups of the generated repository, which a variant repository exposes alike. */
  public interface Lookups {
    Optional<Cart> findByCode(String code);

    Page<Cart> listByOwner(String owner, PageRequest page);
  }

  private final EventSourcedRepository<Cart, CartId, CartEvent> carts;
  private final Lookups lookups;
  private final Meter meter;

  public EsgenSide(EventSourcedRepository<Cart, CartId, CartEvent> carts, Lookups lookups, Meter meter) {
    this.carts = carts;
    this.lookups = lookups;
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

  @Override
  public void loadByUnique(Fixture stream) {
    Cart cart = lookups.findByCode(stream.code()).orElseThrow(
        () -> new IllegalStateException("no cart with code " + stream.code()));
    if (!cart.id().equals(stream.id())) {
      throw new IllegalStateException("code " + stream.code() + " found " + cart.id());
    }
  }

  @Override
  public void listByIndexed(Fixture stream) {
    Page<Cart> page = lookups.listByOwner(stream.owner(), PageRequest.first(Fixture.LOOKUP_GROUP));
    if (page.items().size() != Fixture.LOOKUP_GROUP) {
      throw new IllegalStateException("listed " + page.items().size() + " carts of " + stream.owner());
    }
  }

  @Override
  public void findAll(Fixture stream) {
    Map<CartId, Cart> found = carts.findAll(stream.group());
    if (found.size() != stream.group().size()) {
      throw new IllegalStateException("found " + found.size() + " of " + stream.group().size() + " carts");
    }
  }
}
