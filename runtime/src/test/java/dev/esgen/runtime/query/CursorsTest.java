package dev.esgen.runtime.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.esgen.runtime.error.InvalidCursorException.Problem;
import dev.esgen.runtime.error.InvalidCursorException;
import dev.esgen.runtime.internal.query.Cursors;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

class CursorsTest {

  private static final Map<String, AttributeValue> POSITION = Map.of(
      "shard", AttributeValue.fromS("3"),
      "aid", AttributeValue.fromS("A;n=n\\u0000ü:#"));

  private final Cursors byOwner = Cursors.listBy("bank-account", "owner", "Ann");

  @Test
  void aPositionSurvivesTheRoundTripWhateverItsCharacters() {
    assertEquals(POSITION, byOwner.decode(byOwner.encode(POSITION), Optional::of));
    Cursors all = Cursors.listAll("bank-account");
    assertEquals(POSITION, all.decode(all.encode(POSITION), Optional::of));
    assertEquals(Map.of(), all.decode(all.encode(Map.of()), Optional::of));
  }

  @Test
  void theCursorHoldsNoIndexedValue() {
    Cursors cursors = Cursors.listBy("bank-account", "email", "ann@example.com");
    String text = decoded(cursors.encode(POSITION));
    assertFalse(text.contains("ann@example.com"), text);
    assertFalse(text.contains(base64("ann@example.com")), text);
  }

  @Test
  void aCursorOfAnotherAggregateTypeIsRefused() {
    String cursor = Cursors.listBy("invoice", "owner", "Ann").encode(POSITION);
    assertInvalid(Problem.OTHER_AGGREGATE,
        "cursor for bank-account listBy:owner is invalid: it belongs to invoice listBy:owner", byOwner, cursor);
  }

  @Test
  void aCursorOfAnotherQueryIsRefused() {
    assertInvalid(Problem.OTHER_QUERY, "cursor for bank-account listBy:owner is invalid: it belongs to bank-account"
        + " listAll", byOwner, Cursors.listAll("bank-account").encode(POSITION));
    assertInvalid(Problem.OTHER_QUERY, "cursor for bank-account listAll is invalid: it belongs to bank-account"
        + " listBy:owner", Cursors.listAll("bank-account"), byOwner.encode(POSITION));
    assertInvalid(Problem.OTHER_QUERY, "cursor for bank-account listBy:owner is invalid: it belongs to bank-account"
        + " listBy:email", byOwner, Cursors.listBy("bank-account", "email", "Ann").encode(POSITION));
    assertInvalid(Problem.OTHER_QUERY, "cursor for bank-account listBy:owner is invalid: it belongs to"
        + " listBy:owner of another value", byOwner, Cursors.listBy("bank-account", "owner", "Bob").encode(POSITION));
  }

  @Test
  void garbageAndDamagedCursorsAreMalformed() {
    String malformed = "cursor for bank-account listBy:owner is invalid: it is no cursor an esgen page returned,"
        + " or it was cut short or changed";
    String cursor = byOwner.encode(POSITION);
    assertInvalid(Problem.MALFORMED, malformed, byOwner, "not a cursor!");
    assertInvalid(Problem.MALFORMED, malformed, byOwner, "bm9wZQ");
    assertInvalid(Problem.MALFORMED, malformed, byOwner, "");
    assertInvalid(Problem.MALFORMED, malformed, byOwner, base64("2:"));
    // Cut short by any length: the rest is either no Base64 or fails the checksum.
    for (int length = 0; length < cursor.length(); length++) {
      assertInvalid(Problem.MALFORMED, malformed, byOwner, cursor.substring(0, length));
    }
    String text = decoded(cursor);
    assertInvalid(Problem.MALFORMED, malformed, byOwner, base64(text.replace("=", "=A")));
    assertInvalid(Problem.MALFORMED, malformed, byOwner, base64(text.substring(0, text.length() - 1) + "x"));
  }

  @Test
  void aPositionTheListingDoesNotTakeIsMalformed() {
    InvalidCursorException e = assertThrows(InvalidCursorException.class,
        () -> byOwner.decode(byOwner.encode(POSITION), position -> Optional.empty()));
    assertEquals(Problem.MALFORMED, e.problem());
    assertEquals("cursor for bank-account listBy:owner is invalid: it holds no position listBy:owner can go on from",
        e.getMessage());
  }

  @Test
  void aCursorOfTheFirstFormatIsOfAnUnsupportedVersion() {
    String version1 = base64("1:aid=" + base64("42") + ";pkey=" + base64("bank-account-1"));
    assertInvalid(Problem.UNSUPPORTED_VERSION, "cursor for bank-account listBy:owner is invalid: it is of cursor"
        + " format 1, this esgen version reads format 2 only: start again from the first page", byOwner, version1);
  }

  @Test
  void pageRequestsTakeSizesFrom1To100() {
    assertThrows(IllegalArgumentException.class, () -> PageRequest.first(0));
    assertThrows(IllegalArgumentException.class, () -> PageRequest.first(101));
  }

  private static void assertInvalid(Problem problem, String message, Cursors cursors, String cursor) {
    InvalidCursorException e = assertThrows(InvalidCursorException.class, () -> cursors.decode(cursor, Optional::of),
        cursor);
    assertEquals(problem, e.problem(), cursor);
    assertEquals(message, e.getMessage(), cursor);
  }

  private static String decoded(String cursor) {
    return new String(Base64.getUrlDecoder().decode(cursor), StandardCharsets.UTF_8);
  }

  private static String base64(String text) {
    return Base64.getUrlEncoder().withoutPadding().encodeToString(text.getBytes(StandardCharsets.UTF_8));
  }
}
