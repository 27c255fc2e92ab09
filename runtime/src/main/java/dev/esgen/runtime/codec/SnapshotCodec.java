package dev.esgen.runtime.codec;

import java.io.IOException;

/**
 * Turns an aggregate's state into a stored snapshot body and back.
 *
 * <p>Each snapshot is stored with the codec's {@link #fingerprint()}. A load uses a snapshot only when
 * its stored fingerprint equals the codec's; any other snapshot is ignored, the state is folded from
 * the stream's events, and the next append stores a fresh snapshot.
 *
 * <pre>{@code
 * SnapshotCodec<BankAccount> codec = new BankAccountRepository.SnapshotCodec(EsgenJson.newObjectMapper());
 * BankAccount same = codec.decode(codec.encode(account));
 * String schema = codec.fingerprint();     // e.g. "q3V0c1Xb9aI" for generated codecs
 * }</pre>
 *
 * @param <A> the aggregate type
 */
public interface SnapshotCodec<A> {

  /** The state's JSON body. */
  byte[] encode(A state) throws IOException;

  /** Reads a snapshot body written by {@link #encode}. */
  A decode(byte[] body) throws IOException;

  /**
   * What the snapshots this codec writes were derived with: generated codecs return a hash of the
   * state's shape, of the aggregate's handler code and of {@code @Aggregate(snapshotVersion)}, computed
   * at compile time. The default, {@code ""}, is stored as no fingerprint at all and matches snapshots
   * stored without one.
   */
  default String fingerprint() {
    return "";
  }
}
