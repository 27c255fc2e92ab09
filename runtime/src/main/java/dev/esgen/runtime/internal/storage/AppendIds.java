package dev.esgen.runtime.internal.storage;

import java.nio.ByteBuffer;
import java.util.Base64;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Makes append ids: 128 random bits as 22 characters of URL-safe Base64, stored with the first event of
 * every append (22 bytes of value). 128 bits make a clash between two appends of one stream, the only
 * place they are compared, practically impossible.
 *
 * <pre>{@code
 * String appendId = AppendIds.next();     // e.g. "mB3vQ0x1Tq2W8KpXr5s9Zg"
 * }</pre>
 */
public final class AppendIds {

  /** The length of every append id. */
  public static final int LENGTH = 22;

  private static final Base64.Encoder ENCODER = Base64.getUrlEncoder().withoutPadding();

  private AppendIds() {}

  /** A fresh append id. */
  public static String next() {
    ThreadLocalRandom random = ThreadLocalRandom.current();
    byte[] bits = ByteBuffer.allocate(16).putLong(random.nextLong()).putLong(random.nextLong()).array();
    return ENCODER.encodeToString(bits);
  }
}
