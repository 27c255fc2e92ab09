package dev.esgen.runtime.codec;

import java.io.IOException;

/**
 * A stored event at a version no code of the aggregate reads: no upcaster takes it from there, and its
 * class is at another version (an event written by newer code, or an upcaster removed too early).
 *
 * <p>Its message names the aggregate, the type name and the version, never stored content, so the
 * {@link dev.esgen.runtime.error.EventDecodingException} that reports the stored event keeps it.
 *
 * <pre>{@code
 * // "cannot decode event 7 (type 'money-deposited', version 4) of ledger L-1: UnknownEventVersionException:
 * //  aggregate ledger cannot read version 4 of event type "money-deposited": no upcaster reads it, ..."
 * }</pre>
 */
public final class UnknownEventVersionException extends IOException {

  private static final long serialVersionUID = 1L;

  private final String typeName;
  private final int version;

  // Package-private: RedactedException keeps the message, so only esgen's codec may write one.
  UnknownEventVersionException(String aggregateName, String typeName, int version) {
    super("aggregate " + aggregateName + " cannot read version " + version + " of event type \"" + typeName
        + "\": no upcaster reads it, and its class is at another version");
    this.typeName = typeName;
    this.version = version;
  }

  /** The stored type name. */
  public String typeName() {
    return typeName;
  }

  /** The stored version no code reads. */
  public int version() {
    return version;
  }
}
