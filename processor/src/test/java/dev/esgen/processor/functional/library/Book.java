package dev.esgen.processor.functional.library;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import dev.esgen.annotations.Aggregate;
import dev.esgen.annotations.AggregateId;
import dev.esgen.annotations.Indexed;
import dev.esgen.annotations.Unique;

/**
 * A final-class aggregate: a plain String id read through a getter, columns read through fields and
 * getters, an enum column, a record-wrapped column and one that is often null; default options.
 */
@Aggregate(name = "book", events = BookEvent.class)
public final class Book {
  @AggregateId private final String isbn;
  @Unique final String title;
  @Indexed private final Genre genre;
  @Indexed private final Shelf shelf;
  @Indexed private final String borrower;
  @Indexed final int loans;

  @JsonCreator
  Book(
      @JsonProperty("isbn") String isbn,
      @JsonProperty("title") String title,
      @JsonProperty("genre") Genre genre,
      @JsonProperty("shelf") Shelf shelf,
      @JsonProperty("borrower") String borrower,
      @JsonProperty("loans") int loans) {
    this.isbn = isbn;
    this.title = title;
    this.genre = genre;
    this.shelf = shelf;
    this.borrower = borrower;
    this.loans = loans;
  }

  static Book add(BookAdded e) {
    return new Book(e.getIsbn(), e.getTitle(), e.getGenre(), null, null, 0);
  }

  Book apply(LoanEvent e) {
    if (e instanceof LoanEvent.Lent lent) {
      return new Book(isbn, title, genre, null, lent.borrower(), loans + 1);
    }
    return new Book(isbn, title, genre, new Shelf("A-" + loans), null, loans);
  }

  @JsonProperty("isbn")
  public String isbn() {
    return isbn;
  }

  @JsonProperty("title")
  public String title() {
    return title;
  }

  public Genre getGenre() {
    return genre;
  }

  public Shelf getShelf() {
    return shelf;
  }

  public String getBorrower() {
    return borrower;
  }

  public int getLoans() {
    return loans;
  }
}
