package dev.esgen.processor.functional.library;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import dev.esgen.annotations.EventType;

/** A final-class event that Jackson builds through its {@code @JsonCreator} constructor. */
@EventType("book-added")
public final class BookAdded implements BookEvent {
  private final String isbn;
  private final String title;
  private final Genre genre;

  @JsonCreator
  public BookAdded(
      @JsonProperty("isbn") String isbn, @JsonProperty("title") String title, @JsonProperty("genre") Genre genre) {
    this.isbn = isbn;
    this.title = title;
    this.genre = genre;
  }

  public String getIsbn() {
    return isbn;
  }

  public String getTitle() {
    return title;
  }

  public Genre getGenre() {
    return genre;
  }
}
