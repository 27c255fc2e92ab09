package dev.esgen.runtime.evolution;

import dev.esgen.runtime.codec.SnapshotCodec;
import dev.esgen.runtime.counter.Counter;
import java.io.IOException;

/** A snapshot codec with a fingerprint, as generated codecs have one, around a hand-written one. */
record Fingerprinted(SnapshotCodec<Counter> codec, String fingerprint) implements SnapshotCodec<Counter> {

  @Override
  public byte[] encode(Counter state) throws IOException {
    return codec.encode(state);
  }

  @Override
  public Counter decode(byte[] body) throws IOException {
    return codec.decode(body);
  }
}
