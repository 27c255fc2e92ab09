package dev.esgen.runtime.error;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.BeanDescription;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.esgen.runtime.codec.UnknownEventTypeException;
import dev.esgen.runtime.codec.UnknownEventVersionException;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Stands in, as the cause of a decoding error, for an exception whose message may quote stored data:
 * Jackson's messages quote the offending JSON (a card number, an email), and a codec's own exception may
 * too. Logging the decoding error prints its whole cause chain, so the chain keeps what an operator needs
 * to find the fault and nothing of the stored content: each exception's class name, for a JSON error
 * where in the document it occurred (the JSON path, and the line and column), and its stack trace; never
 * its message. Keys of JSON objects read into a {@code Map}, or taken by a {@code @JsonAnySetter}, are
 * data, so the path shows them as {@code [*]}. Suppressed exceptions are left out. The messages of esgen's
 * {@link UnknownEventTypeException} and {@link UnknownEventVersionException} are kept: they name the
 * aggregate, the stored type name and version and the code's type names, nothing of the event.
 *
 * <pre>{@code
 * try {
 *   accounts.load(id);
 * } catch (EventDecodingException e) {
 *   // e.getCause().getMessage(): "com.fasterxml.jackson.databind.exc.InvalidFormatException at $.amount,
 *   //     line 1, column 11 (message withheld: it may quote stored data)"
 *   String original = ((RedactedException) e.getCause()).originalClassName();
 * }
 * }</pre>
 */
public final class RedactedException extends Exception {

  private static final long serialVersionUID = 1L;

  private final String originalClassName;
  // where a JSON error occurred, or the message of an exception that quotes nothing stored
  private final String detail;

  private RedactedException(Throwable original, String detail, boolean messageKept, RedactedException cause) {
    super(original.getClass().getName() + detail
        + (messageKept ? "" : " (message withheld: it may quote stored data)"), cause, false, true);
    this.originalClassName = original.getClass().getName();
    this.detail = detail;
    setStackTrace(original.getStackTrace());
  }

  /** {@code original} and its causes, redacted; {@code original} itself when it is redacted already. */
  public static RedactedException of(Throwable original) {
    return of(original, Collections.newSetFromMap(new IdentityHashMap<>()));
  }

  private static RedactedException of(Throwable original, Set<Throwable> seen) {
    if (original instanceof RedactedException redacted) {
      return redacted;
    }
    seen.add(original);
    Throwable cause = original.getCause();
    // A cause chain may loop back; the loop is cut where it does.
    RedactedException redactedCause = cause == null || seen.contains(cause) ? null : of(cause, seen);
    Optional<String> kept = keptMessage(original);
    return kept.isPresent()
        ? new RedactedException(original, ": " + kept.get(), true, redactedCause)
        : new RedactedException(original, location(original), false, redactedCause);
  }

  /** The fully qualified class name of the exception this one stands in for. */
  public String originalClassName() {
    return originalClassName;
  }

  /**
   * The original's simple class name and, for a JSON error, where it occurred (or the message it keeps):
   * for decoding errors' messages.
   */
  String summary() {
    return originalClassName.substring(originalClassName.lastIndexOf('.') + 1) + detail;
  }

  /** The message of {@code original} if it is one of esgen's that quote nothing stored. */
  private static Optional<String> keptMessage(Throwable original) {
    return (original instanceof UnknownEventTypeException || original instanceof UnknownEventVersionException)
            && original.getMessage() != null
        ? Optional.of(original.getMessage())
        : Optional.empty();
  }

  /** {@code " at $.path, line l, column c"}, as far as the exception knows; empty for other exceptions. */
  private static String location(Throwable exception) {
    StringBuilder where = new StringBuilder();
    if (exception instanceof JsonMappingException mapping && !mapping.getPath().isEmpty()) {
      where.append(" at ").append(path(mapping.getPath()));
    }
    JsonLocation location = exception instanceof JsonProcessingException json ? json.getLocation() : null;
    // Only line and column: the location's own text may quote the document.
    if (location != null && location.getLineNr() > 0) {
      where.append(where.length() == 0 ? " at " : ", ")
          .append("line ").append(location.getLineNr()).append(", column ").append(location.getColumnNr());
    }
    return where.toString();
  }

  private static String path(List<JsonMappingException.Reference> references) {
    StringBuilder path = new StringBuilder("$");
    for (JsonMappingException.Reference reference : references) {
      if (reference.getFrom() instanceof Map || takenByAnySetter(reference)) {
        path.append("[*]");
      } else if (reference.getFieldName() != null) {
        path.append('.').append(reference.getFieldName());
      } else if (reference.getIndex() >= 0) {
        path.append('[').append(reference.getIndex()).append(']');
      } else {
        path.append("[?]");
      }
    }
    return path.toString();
  }

  /**
   * Whether {@code reference} names a key that its class's any-setter took rather than a property the
   * class declares. The class is read with Jackson's default annotations and naming: a class with an
   * any-setter shows even a declared property as {@code [*]} when the mapper renames it.
   */
  private static boolean takenByAnySetter(JsonMappingException.Reference reference) {
    Object from = reference.getFrom();
    String name = reference.getFieldName();
    if (from == null || name == null) {
      return false;
    }
    Class<?> type = from instanceof Class<?> declaring ? declaring : from.getClass();
    try {
      BeanDescription bean = Introspection.MAPPER.getDeserializationConfig()
          .introspect(Introspection.MAPPER.constructType(type));
      return bean.findAnySetterAccessor() != null
          && bean.findProperties().stream().noneMatch(property -> property.getName().equals(name));
    } catch (RuntimeException unreadable) {
      // Whatever the class is, the name is withheld rather than risked.
      return true;
    }
  }

  /** A mapper only to read classes' Jackson annotations with, made when an exception first needs it. */
  private static final class Introspection {
    static final ObjectMapper MAPPER = new ObjectMapper();
  }
}
