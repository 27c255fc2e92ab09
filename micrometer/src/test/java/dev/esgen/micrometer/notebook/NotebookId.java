package dev.esgen.micrometer.notebook;

import java.util.UUID;

/** Identifies a notebook. */
public record NotebookId(UUID value) {

  public static NotebookId random() {
    return new NotebookId(UUID.randomUUID());
  }
}
