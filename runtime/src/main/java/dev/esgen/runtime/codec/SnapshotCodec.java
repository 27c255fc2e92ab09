package dev.esgen.runtime.codec;

import java.io.IOException;

/**
 * Turns an aggregate's state into a stored snapshot body and back.
 *
 * <pre>{@code
 * SnapshotCodec<BankAccount> codec = new BankAccountSnapshotCodec(EsgenJson.newObjectMapper());
 * BankAccount same = codec.decode(codec.encode(account));
 * }</pre>
 *
 * @param <A> the aggregate type
 */
public interface SnapshotCodec<A> {

  /** The state's JSON body. */
  byte[] encode(A state) throws IOException;

  /** Reads a snapshot body written by {@link #encode}. */
  A decode(byte[] body) throws IOException;
}
