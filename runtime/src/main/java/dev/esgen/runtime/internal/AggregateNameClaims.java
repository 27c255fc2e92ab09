package dev.esgen.runtime.internal;

import dev.esgen.runtime.aggregate.AggregateDefinition;
import dev.esgen.runtime.error.DuplicateAggregateNameException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * Which aggregate type claimed each stored name in one store. Two types under one name would share keys;
 * aggregates compiled apart (separate modules, or incremental builds the processor cannot see across)
 * meet here first. Types are compared by class name, so a class reloaded by a development server's
 * restart is not taken for another type.
 *
 * <pre>{@code
 * AggregateNameClaims claims = new AggregateNameClaims();
 * claims.claim(definition);   // in each repository's constructor, through StoreInternals.claimName
 * }</pre>
 */
public final class AggregateNameClaims {

  /** Stored aggregate name to the class name of the aggregate type that claimed it. */
  private final ConcurrentMap<String, String> claimed = new ConcurrentHashMap<>();

  /**
   * Claims {@code definition}'s stored name for its aggregate type; claiming it again for the same type
   * is fine.
   *
   * @throws DuplicateAggregateNameException when another aggregate type claimed the name
   */
  public void claim(AggregateDefinition<?, ?, ?> definition) {
    String type = definition.aggregateType().getName();
    String holder = claimed.putIfAbsent(definition.name(), type);
    if (holder != null && !holder.equals(type)) {
      throw new DuplicateAggregateNameException(definition.name(), holder, type);
    }
  }
}
