package dev.esgen.runtime.aggregate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.esgen.runtime.error.InvalidIdException;
import dev.esgen.runtime.internal.keys.JournalKeys;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class AggregateIdsTest {

  @Test
  void theJournalLimitLeavesRoomForTheNameTwoDashesAndTheSeqNr() {
    assertEquals(1024 - "bank-account".length() - 2 - JournalKeys.SEQ_NR_DIGITS,
        AggregateIds.maxBytes("bank-account", LayoutKind.JOURNAL));
    assertEquals(990, AggregateIds.maxBytes("bank-account", LayoutKind.JOURNAL));
    String atLimit = "x".repeat(990);
    assertEquals(1024, new JournalKeys("bank-account", 4).sortKey(atLimit, Long.MAX_VALUE)
        .getBytes(StandardCharsets.UTF_8).length);
  }

  @Test
  void theTipLimitIsThatOfAnIndexRangeKey() {
    assertEquals(1024, AggregateIds.maxBytes("bank-account", LayoutKind.TIP));
  }

  @Test
  void anIdUpToTheLimitIsReturnedAsItIs() {
    String id = "x".repeat(990);
    assertSame(id, AggregateIds.requireValid("bank-account", LayoutKind.JOURNAL, id));
    assertEquals("42", AggregateIds.requireValid("bank-account", LayoutKind.TIP, "42"));
  }

  @Test
  void anEmptyIdIsRefusedOnBothLayouts() {
    for (LayoutKind layout : LayoutKind.values()) {
      InvalidIdException e =
          assertThrows(InvalidIdException.class, () -> AggregateIds.requireValid("bank-account", layout, ""));
      assertEquals("bank-account", e.aggregateName());
      assertEquals(0, e.sizeBytes());
      assertEquals(AggregateIds.maxBytes("bank-account", layout), e.limitBytes());
      assertTrue(e.getMessage().startsWith("bank-account id is empty"), e.getMessage());
    }
  }

  @Test
  void bytesAreCountedInUtf8() {
    // 495 two-byte characters are 990 bytes: at the limit; one more ASCII character is over it.
    String atLimit = "é".repeat(495);
    assertSame(atLimit, AggregateIds.requireValid("bank-account", LayoutKind.JOURNAL, atLimit));
    InvalidIdException e = assertThrows(InvalidIdException.class,
        () -> AggregateIds.requireValid("bank-account", LayoutKind.JOURNAL, atLimit + "x"));
    assertEquals(991, e.sizeBytes());
    assertEquals(990, e.limitBytes());
  }

  @Test
  void anIdIsAcceptedExactlyWhenItsUtf8BytesAreWithinTheLimit() {
    // Short ids are accepted without counting their bytes; around every length where that shortcut stops
    // applying, the verdict must still be the exact one, for 1-, 2- and 3-byte characters and a pair.
    for (String name : new String[] {"bank-account", "ü".repeat(40), "x".repeat(300)}) {
      for (LayoutKind layout : LayoutKind.values()) {
        int limit = AggregateIds.maxBytes(name, layout);
        for (String unit : new String[] {"x", "é", "€", "😀"}) {
          for (int count = 1; count * unit.length() <= 1100; count++) {
            String id = unit.repeat(count);
            int bytes = id.getBytes(StandardCharsets.UTF_8).length;
            if (bytes <= limit) {
              assertSame(id, AggregateIds.requireValid(name, layout, id), name + " " + layout + " " + bytes);
            } else {
              assertEquals(bytes, assertThrows(InvalidIdException.class,
                  () -> AggregateIds.requireValid(name, layout, id)).sizeBytes());
            }
          }
        }
      }
    }
  }

  @Test
  void aTooLongIdIsNamedByAShortPrefixOnly() {
    String id = "abcdefghij".repeat(103);
    InvalidIdException e =
        assertThrows(InvalidIdException.class, () -> AggregateIds.requireValid("cart", LayoutKind.TIP, id));
    assertEquals("cart", e.aggregateName());
    assertEquals(1030, e.sizeBytes());
    assertEquals(1024, e.limitBytes());
    assertEquals("abcdefghij".repeat(3) + "ab...", e.idPrefix());
    assertEquals("cart id '" + e.idPrefix() + "' is 1,030 bytes of UTF-8, over the limit of 1,024 bytes the"
        + " DynamoDB keys built from it allow; nothing was sent", e.getMessage());
    assertFalse(e.getMessage().contains(id));
  }

  @Test
  void thePrefixNeverSplitsACharacter() {
    String id = "😀".repeat(300);   // 4 bytes and 2 chars each
    InvalidIdException e =
        assertThrows(InvalidIdException.class, () -> AggregateIds.requireValid("cart", LayoutKind.TIP, id));
    assertEquals(1200, e.sizeBytes());
    assertEquals("😀".repeat(InvalidIdException.PREFIX_LENGTH) + "...", e.idPrefix());
  }
}
