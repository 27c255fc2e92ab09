package dev.esgen.processor.functional.catalog;

import dev.esgen.annotations.DomainEvents;
import dev.esgen.annotations.EventType;
import java.util.UUID;

@DomainEvents
public sealed interface ProductEvent {

  @EventType("product-listed")
  record Listed(UUID id, Details details) implements ProductEvent {}

  @EventType("product-changed")
  record Changed(Details details) implements ProductEvent {}

  /** Changes no index column: the append that must cause no index write. */
  @EventType("product-noted")
  record Noted(String text) implements ProductEvent {}
}
