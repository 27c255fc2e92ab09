package dev.esgen.runtime.codec;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.Objects;

/**
 * The base of the snapshot codec the processor generates for each aggregate
 * ({@code FooRepository.SnapshotCodec}): the state as one JSON body, stored with the fingerprint the
 * processor computed for the state's shape and handler code.
 *
 * <pre>{@code
 * public static final class SnapshotCodec extends JsonSnapshotCodec<BankAccount> {
 *   public static final String FINGERPRINT = "q3V0c1Xb9aI";
 *
 *   public SnapshotCodec(ObjectMapper mapper) {
 *     super(mapper, BankAccount.class, FINGERPRINT);
 *   }
 * }
 * }</pre>
 *
 * <p>Immutable and thread-safe.
 *
 * @param <A> the aggregate type
 */
public abstract class JsonSnapshotCodec<A> implements SnapshotCodec<A> {

  private final JsonBodies bodies;
  private final String fingerprint;

  /** A codec of {@code stateType} with {@code mapper}'s configuration, its snapshots stored with {@code fingerprint}. */
  protected JsonSnapshotCodec(ObjectMapper mapper, Class<A> stateType, String fingerprint) {
    this.bodies = new JsonBodies(mapper, Objects.requireNonNull(stateType, "stateType"));
    this.fingerprint = Objects.requireNonNull(fingerprint, "fingerprint");
  }

  @Override
  public byte[] encode(A state) throws IOException {
    Objects.requireNonNull(state, "state");
    return bodies.write(0, state);
  }

  @Override
  public A decode(byte[] body) throws IOException {
    Objects.requireNonNull(body, "body");
    return bodies.read(0, body);
  }

  @Override
  public String fingerprint() {
    return fingerprint;
  }
}
