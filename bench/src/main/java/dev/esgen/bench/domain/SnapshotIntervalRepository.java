package dev.esgen.bench.domain;

import dev.esgen.runtime.EventStore;
import dev.esgen.runtime.aggregate.AggregateDefinition;
import dev.esgen.runtime.aggregate.SnapshotPolicy;
import dev.esgen.runtime.repository.EventSourcedRepository;

/**
 * The generated {@link CartRepository}'s definition (same keys, codecs and replay) with another snapshot
 * policy, for the scenarios that compare intervals. A generated repository is exactly this: an
 * {@link EventSourcedRepository} over its generated definition, so nothing else differs.
 */
public final class SnapshotIntervalRepository extends EventSourcedRepository<Cart, CartId, CartEvent> {

  public SnapshotIntervalRepository(EventStore store, SnapshotPolicy policy) {
    super(store, withPolicy(CartRepository.definition(store.objectMapper()), policy));
  }

  private static AggregateDefinition<Cart, CartId, CartEvent> withPolicy(
      AggregateDefinition<Cart, CartId, CartEvent> generated, SnapshotPolicy policy) {
    return new AggregateDefinition<>(generated.name(), generated.aggregateType(), generated.keys(),
        generated.eventCodec(), generated.snapshotCodec(), generated.replay(), generated.indexColumns(),
        generated.shards(), policy, generated.layout(), generated.tipPolicy());
  }
}
