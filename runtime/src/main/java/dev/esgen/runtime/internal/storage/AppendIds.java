package dev.esgen.runtime.internal.storage;

import java.security.SecureRandom;
import java.util.Base64;

/**
 * Makes append ids: 128 random bits as 22 characters of URL-safe Base64, stored with the first event of
 * every append (22 bytes of value). 128 bits make a clash between two appends of one stream, the only
 * place they are compared, practically impossible.
 *
 * <p>The bits come from a {@link SecureRandom}, as {@link java.util.UUID#randomUUID()}'s do, not from a
 * generator seeded from the clock whose whole state is in the heap ({@code ThreadLocalRandom}): two
 * processes restored from one snapshot of a JVM (AWS Lambda SnapStart, CRaC) would draw the same ids from
 * that one, and reading back an append of unknown outcome would take the other process's append, holding
 * the same id, for its own. The JDK's default {@code SecureRandom} mixes in the operating system's entropy
 * on every draw, and the JDKs those snapshots run on reseed it on restore.
 *
 * <pre>{@code
 * String appendId = AppendIds.next();     // e.g. "mB3vQ0x1Tq2W8KpXr5s9Zg"
 * }</pre>
 */
public final class AppendIds {

  /** The length of every append id. */
  public static final int LENGTH = 22;

  private static final Base64.Encoder ENCODER = Base64.getUrlEncoder().withoutPadding();

  private static final SecureRandom RANDOM = new SecureRandom();

  private AppendIds() {}

  /** A fresh append id. */
  public static String next() {
    byte[] bits = new byte[16];
    RANDOM.nextBytes(bits);
    return ENCODER.encodeToString(bits);
  }
}
