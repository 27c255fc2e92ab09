package dev.esgen.testkit.memory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Ids sort as DynamoDB sorts key bytes, not as Java compares strings. */
class Utf8OrderTest {

  @Test
  void charactersBeyondTheBasicPlaneSortAfterTheLastOfIt() {
    String emoji = "\uD83D\uDE00";
    String lastOfThePlane = "\uFFFD";

    assertTrue(emoji.compareTo(lastOfThePlane) < 0, "Java puts the emoji first");
    assertTrue(Utf8Order.INSTANCE.compare(emoji, lastOfThePlane) > 0);
    assertTrue(Utf8Order.INSTANCE.compare("a", "ab") < 0);
    assertEquals(0, Utf8Order.INSTANCE.compare(emoji, "\uD83D\uDE00"));
  }

  @Test
  void agreesWithTheOrderOfTheUtf8BytesOnRandomStrings() {
    SplittableRandom random = new SplittableRandom(7);
    int[] pool = {'a', 'z', '-', ' ', 0xE9, 0x20AC, 0xFFFD, 0xE000, 0x1F600, 0x10FFFF, 0x10000};
    for (int i = 0; i < 5_000; i++) {
      String left = randomString(random, pool);
      String right = randomString(random, pool);
      int bytes = Integer.signum(Arrays.compareUnsigned(left.getBytes(StandardCharsets.UTF_8),
          right.getBytes(StandardCharsets.UTF_8)));
      assertEquals(bytes, Integer.signum(Utf8Order.INSTANCE.compare(left, right)), left + " vs " + right);
    }
  }

  private static String randomString(SplittableRandom random, int[] pool) {
    StringBuilder text = new StringBuilder();
    int length = random.nextInt(0, 5);
    for (int i = 0; i < length; i++) {
      text.appendCodePoint(pool[random.nextInt(pool.length)]);
    }
    return text.toString();
  }
}
