package dev.esgen.processor.functional.note;

import dev.esgen.annotations.DomainEvents;
import java.util.UUID;

/** The events of a note, stored in the tip layout. */
@DomainEvents
public sealed interface NoteEvent {

  record Written(UUID id, String text) implements NoteEvent {}

  record Edited(String text) implements NoteEvent {}
}
