package dev.esgen.processor.functional.tag;

import dev.esgen.annotations.DomainEvents;

/** The events of a tag, stored in the tip layout. */
@DomainEvents
public sealed interface TagEvent {

  record Created(TagId id, String label) implements TagEvent {}

  record Relabelled(String label) implements TagEvent {}
}
