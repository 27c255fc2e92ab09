package dev.esgen.runtime.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.esgen.runtime.counter.CounterCreated;
import dev.esgen.runtime.counter.CounterId;
import dev.esgen.runtime.counter.CounterRepository;
import dev.esgen.runtime.error.InvalidCursorException;
import dev.esgen.runtime.error.InvalidCursorException.Problem;
import dev.esgen.runtime.internal.query.Cursors;
import dev.esgen.runtime.testing.CounterLayout;
import dev.esgen.runtime.testing.TestDynamo;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A cursor comes from the caller, often from a web client, and its checksum guards against damage, not
 * against someone who makes one: what it says of its listing reaches the exception's message (and the
 * log) only in the form esgen writes aggregate names and columns, never as text with line breaks or of
 * any length.
 */
class ForgedCursorTest {

  private static final String FORGED = "x\n2026-11-28 ERROR admin logged in " + "z".repeat(10_000);

  @ParameterizedTest
  @EnumSource(CounterLayout.class)
  void aMadeUpListingInACursorIsNotRepeatedInTheMessage(CounterLayout layout) {
    CounterRepository counters = layout.repository();
    counters.create(new CounterCreated(CounterId.random(), "c"));
    TestDynamo.requests().reset();

    assertInvalid(Problem.OTHER_AGGREGATE, "cursor for counter listAll is invalid: it belongs to a listing of another"
        + " aggregate type", counters, Cursors.listAll(FORGED).encode(Map.of()));
    assertInvalid(Problem.OTHER_AGGREGATE, "cursor for counter listAll is invalid: it belongs to a listing of another"
        + " aggregate type", counters, Cursors.listBy("other", FORGED, "v").encode(Map.of()));
    assertInvalid(Problem.OTHER_QUERY, "cursor for counter listAll is invalid: it belongs to another listing of"
        + " counter", counters, Cursors.listBy("counter", FORGED, "v").encode(Map.of()));
    assertInvalid(Problem.MALFORMED, "cursor for counter listAll is invalid: it is no cursor an esgen page returned,"
        + " or it was cut short or changed", counters, base64("9".repeat(10_000) + ":rest"));
    // What esgen writes is still named.
    assertInvalid(Problem.OTHER_AGGREGATE, "cursor for counter listAll is invalid: it belongs to bank-account"
        + " listBy:e-mail_2.x", counters, Cursors.listBy("bank-account", "e-mail_2.x", "v").encode(Map.of()));
    assertInvalid(Problem.UNSUPPORTED_VERSION, "cursor for counter listAll is invalid: it is of cursor format 1, this"
        + " esgen version reads format 2 only: start again from the first page", counters, base64("1:aid=eA"));
    assertEquals(0, TestDynamo.requests().total(), "nothing is read for a cursor that is refused");
  }

  private static void assertInvalid(Problem problem, String message, CounterRepository counters, String cursor) {
    InvalidCursorException e = assertThrows(InvalidCursorException.class,
        () -> counters.listAll(PageRequest.after(cursor, 10)));
    assertEquals(message, e.getMessage());
    assertEquals(problem, e.problem());
  }

  private static String base64(String text) {
    return Base64.getUrlEncoder().withoutPadding().encodeToString(text.getBytes(StandardCharsets.UTF_8));
  }
}
