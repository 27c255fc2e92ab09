package dev.esgen.processor.functional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.esgen.processor.functional.library.BookAdded;
import dev.esgen.processor.functional.library.BookRepository;
import dev.esgen.processor.functional.library.Genre;
import dev.esgen.processor.functional.library.LoanEvent;
import dev.esgen.processor.functional.tag.Tag;
import dev.esgen.processor.functional.tag.TagEvent;
import dev.esgen.processor.functional.tag.TagId;
import dev.esgen.processor.functional.tag.TagRepository;
import dev.esgen.runtime.error.InvalidIdException;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Generated keys refuse ids no DynamoDB key can hold, with the limit of the aggregate's layout:
 * {@code book} (journal) allows 1,024 - 4 - 22 = 998 bytes, {@code tag} (tip) 1,024 bytes.
 */
class InvalidIdTest {

  private static final int BOOK_LIMIT = 998;
  private static final int TAG_LIMIT = 1024;

  private final BookRepository books = new BookRepository(IndexDynamo.store());
  private final TagRepository tags = new TagRepository(IndexDynamo.store());

  @Test
  void generatedKeysRefuseAnEmptyIdNamingTheAggregateAndTheLimit() {
    InvalidIdException book = assertThrows(InvalidIdException.class, () -> new BookRepository.Keys().idString(""));
    assertEquals("book id is empty; an id string must be 1 to 998 bytes of UTF-8. Nothing was sent", book.getMessage());
    InvalidIdException tag = assertThrows(InvalidIdException.class, () -> new TagRepository.Keys().idString(new TagId("")));
    assertEquals("tag id is empty; an id string must be 1 to 1,024 bytes of UTF-8. Nothing was sent", tag.getMessage());
  }

  @Test
  void generatedKeysRefuseAnIdOverTheLimitOfTheirLayout() {
    InvalidIdException book =
        assertThrows(InvalidIdException.class, () -> new BookRepository.Keys().idString("b".repeat(BOOK_LIMIT + 1)));
    assertEquals("book", book.aggregateName());
    assertEquals(BOOK_LIMIT + 1, book.sizeBytes());
    assertEquals(BOOK_LIMIT, book.limitBytes());
    assertTrue(book.getMessage().startsWith("book id '" + "b".repeat(32) + "...' is 999 bytes of UTF-8, over the"
        + " limit of 998 bytes"), book.getMessage());

    InvalidIdException tag =
        assertThrows(InvalidIdException.class, () -> new TagRepository.Keys().idString(new TagId("t".repeat(TAG_LIMIT + 1))));
    assertEquals("tag", tag.aggregateName());
    assertEquals(TAG_LIMIT, tag.limitBytes());
    assertTrue(tag.getMessage().contains("is 1,025 bytes of UTF-8, over the limit of 1,024 bytes"), tag.getMessage());
  }

  @Test
  void generatedRepositoriesRefuseBadIdsOnBothLayouts() {
    String longBook = "b".repeat(BOOK_LIMIT + 1);
    assertThrows(InvalidIdException.class, () -> books.create(new BookAdded("", "Empty", Genre.FICTION)));
    assertThrows(InvalidIdException.class, () -> books.create(new BookAdded(longBook, "Long", Genre.FICTION)));
    assertThrows(InvalidIdException.class, () -> books.load(""));
    assertThrows(InvalidIdException.class, () -> books.findById(longBook));
    assertThrows(InvalidIdException.class, () -> books.append(longBook, 1, new LoanEvent.Lent("Bob")));

    TagId longTag = new TagId("t".repeat(TAG_LIMIT + 1));
    assertThrows(InvalidIdException.class, () -> tags.create(new TagEvent.Created(new TagId(""), "empty")));
    assertThrows(InvalidIdException.class, () -> tags.create(new TagEvent.Created(longTag, "long")));
    assertThrows(InvalidIdException.class, () -> tags.load(new TagId("")));
    assertThrows(InvalidIdException.class, () -> tags.findById(longTag));
    assertThrows(InvalidIdException.class, () -> tags.append(longTag, 1, new TagEvent.Relabelled("x")));
  }

  @Test
  void anIdExactlyAtTheLimitIsStoredOnBothLayouts() {
    String isbn = atLimit(BOOK_LIMIT);
    String title = "At the limit " + UUID.randomUUID();
    books.create(new BookAdded(isbn, title, Genre.FICTION));
    assertEquals(title, books.load(isbn).title());

    TagId id = new TagId(atLimit(TAG_LIMIT));
    tags.create(new TagEvent.Created(id, "first"));
    tags.append(id, 1, new TagEvent.Relabelled("second"));
    assertEquals(new Tag(id, "second"), tags.load(id));
  }

  /** A fresh id of exactly {@code bytes} UTF-8 bytes. */
  private static String atLimit(int bytes) {
    String unique = UUID.randomUUID().toString();
    return unique + "x".repeat(bytes - unique.length());
  }
}
