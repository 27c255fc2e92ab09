package dev.esgen.bench.domain;

import dev.esgen.runtime.EventStore;
import dev.esgen.runtime.aggregate.AggregateDefinition;
import dev.esgen.runtime.aggregate.LayoutKind;
import dev.esgen.runtime.aggregate.TipPolicy;
import dev.esgen.runtime.index.IndexColumns;
import dev.esgen.runtime.query.Page;
import dev.esgen.runtime.query.PageRequest;
import dev.esgen.runtime.repository.EventSourcedRepository;
import java.util.Optional;

/**
 * The generated {@link CartRepository}'s definition (same name, keys, codecs, replay) in the variants
 * the end-to-end scenarios compare it with: stored in the tip layout, or without index columns. A
 * generated repository is an {@link EventSourcedRepository} over its generated definition, so only the
 * changed field differs.
 */
public final class CartVariants {

  private CartVariants() {}

  /** The cart in the tip layout with the default {@link TipPolicy} (snapshot in the tip). */
  public static AggregateDefinition<Cart, CartId, CartEvent> tip(AggregateDefinition<Cart, CartId, CartEvent> g) {
    return tip(g, TipPolicy.defaults());
  }

  /** The cart in the tip layout with {@code policy}. */
  public static AggregateDefinition<Cart, CartId, CartEvent> tip(
      AggregateDefinition<Cart, CartId, CartEvent> g, TipPolicy policy) {
    return g.withLayout(LayoutKind.TIP, policy);
  }

  /** The cart with its {@code @Indexed} and {@code @Unique} columns taken away. */
  public static AggregateDefinition<Cart, CartId, CartEvent> withoutIndexColumns(
      AggregateDefinition<Cart, CartId, CartEvent> g) {
    return new AggregateDefinition<>(g.name(), g.aggregateType(), g.keys(), g.eventCodec(), g.snapshotCodec(),
        g.replay(), IndexColumns.none(), g.shards(), g.snapshotPolicy(), g.layout(), g.tipPolicy());
  }

  /**
   * A repository over a variant definition, with the lookups the generated repository has (through the
   * same protected methods the generated {@code loadByCode} and {@code listByOwner} call).
   */
  public static final class Repository extends EventSourcedRepository<Cart, CartId, CartEvent> {

    public Repository(EventStore store, AggregateDefinition<Cart, CartId, CartEvent> definition) {
      super(store, definition);
    }

    public Optional<Cart> findByCode(String code) {
      return findByUnique(CartRepository.IndexColumns.CODE, code);
    }

    public Page<Cart> listByOwner(String owner, PageRequest page) {
      return listByIndex(CartRepository.IndexColumns.OWNER, owner, page);
    }
  }
}
