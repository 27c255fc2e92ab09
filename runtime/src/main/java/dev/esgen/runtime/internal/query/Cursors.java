package dev.esgen.runtime.internal.query;

import dev.esgen.runtime.error.InvalidCursorException.Problem;
import dev.esgen.runtime.error.InvalidCursorException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.regex.Pattern;
import java.util.zip.CRC32;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The cursors of one listing of one aggregate type: {@code listAll}, or {@code listBy} of one column and
 * value. A cursor holds where the listing goes on (string attributes only) and says which listing it
 * belongs to, so that a cursor passed to another listing, or cut short, fails with an
 * {@link InvalidCursorException} instead of reaching DynamoDB as a wrong start key.
 *
 * <p>Format (users must not rely on it; they only hand cursors back): URL-safe Base64 of
 * {@code 2:{aggregate};{query};{name}={value};...;{crc}}, where aggregate, query and values are Base64
 * themselves (so any character in them is safe), the query is {@code listAll} or
 * {@code listBy:{column}:{hash}} with a SHA-256 prefix of the value, never the value itself, and the
 * CRC32 of everything before it tells a damaged cursor from one to another position.
 *
 * <pre>{@code
 * Cursors cursors = Cursors.listBy("bank-account", "owner", "Ann");
 * String cursor = cursors.encode(Map.of("aid", AttributeValue.fromS("5f0c...")));
 * String aid = cursors.decode(cursor, position -> Optional.ofNullable(position.get("aid"))).s();
 * }</pre>
 */
public final class Cursors {

  /** The format version; 1 was a bare {@code LastEvaluatedKey}, which named no listing. */
  private static final String VERSION = "2";
  private static final char VERSION_END = ':';
  private static final String SEPARATOR = ";";
  private static final String ALL = "listAll";
  private static final String BY = "listBy:";
  /** Bytes of the value's SHA-256 in a {@code listBy} query: enough to tell values apart by accident. */
  private static final int HASH_BYTES = 12;
  /**
   * What a message repeats of the listing a cursor names: anyone can make a cursor that passes the
   * checksum, and messages end up in logs, so only text of the length and characters of the aggregate
   * names and columns esgen writes into cursors, never line breaks or a megabyte of text.
   */
  private static final Pattern SHOWN = Pattern.compile("[A-Za-z0-9_.:-]{1,100}");

  private final String aggregateName;
  private final String query;
  private final String tag;

  private Cursors(String aggregateName, String query, String tag) {
    this.aggregateName = Objects.requireNonNull(aggregateName, "aggregateName");
    this.query = query;
    this.tag = tag;
  }

  /** The cursors of {@code listAll} of {@code aggregateName}. */
  public static Cursors listAll(String aggregateName) {
    return new Cursors(aggregateName, ALL, ALL);
  }

  /** The cursors of the listing of {@code aggregateName}s whose {@code column} holds {@code value}. */
  public static Cursors listBy(String aggregateName, String column, String value) {
    String query = BY + column;
    return new Cursors(aggregateName, query, query + VERSION_END + base64(sha256(value), HASH_BYTES));
  }

  /** A cursor for {@code position}, whose attributes must all be strings. */
  public String encode(Map<String, AttributeValue> position) {
    StringBuilder text = new StringBuilder(VERSION).append(VERSION_END)
        .append(base64(aggregateName)).append(SEPARATOR).append(base64(tag)).append(SEPARATOR);
    for (Map.Entry<String, AttributeValue> entry : new TreeMap<>(position).entrySet()) {
      if (entry.getValue().s() == null) {
        throw new IllegalArgumentException("cursor positions hold strings only, " + entry.getKey() + " is not");
      }
      text.append(entry.getKey()).append('=').append(base64(entry.getValue().s())).append(SEPARATOR);
    }
    text.append(crc(text));
    return base64(text.toString());
  }

  /**
   * The position {@code cursor} holds, read by {@code read}, after checking that the cursor is intact and
   * belongs to this listing.
   *
   * @param read the start of the listing after the position, empty when the position is not one this
   *     listing returns (a cursor made by hand)
   * @throws InvalidCursorException when {@code cursor} belongs to another listing, is damaged, is of
   *     another format version, or {@code read} finds no start in it
   */
  public <T> T decode(String cursor, Function<Map<String, AttributeValue>, Optional<T>> read) {
    String text = unbase64(cursor).orElseThrow(this::malformed);
    int versionEnd = text.indexOf(VERSION_END);
    String version = versionEnd < 0 ? "" : text.substring(0, versionEnd);
    if (!version.matches("[0-9]{1,9}")) {
      throw malformed();
    }
    if (!version.equals(VERSION)) {
      throw invalid(Problem.UNSUPPORTED_VERSION, "it is of cursor format " + version + ", this esgen version reads"
          + " format " + VERSION + " only: start again from the first page");
    }
    int crcStart = text.lastIndexOf(SEPARATOR) + 1;
    if (crcStart == 0 || !text.substring(crcStart).equals(crc(text.substring(0, crcStart)))) {
      throw malformed();
    }
    String[] fields = text.substring(versionEnd + 1, crcStart - 1).split(SEPARATOR, -1);
    if (fields.length < 2) {
      throw malformed();
    }
    String otherAggregate = unbase64(fields[0]).orElseThrow(this::malformed);
    String otherTag = unbase64(fields[1]).orElseThrow(this::malformed);
    if (!otherAggregate.equals(aggregateName)) {
      throw invalid(Problem.OTHER_AGGREGATE, shown(otherAggregate) && shown(query(otherTag))
          ? "it belongs to " + otherAggregate + " " + query(otherTag)
          : "it belongs to a listing of another aggregate type");
    }
    if (!otherTag.equals(tag)) {
      throw invalid(Problem.OTHER_QUERY, query(otherTag).equals(query)
          ? "it belongs to " + query + " of another value"
          : shown(query(otherTag))
              ? "it belongs to " + aggregateName + " " + query(otherTag)
              : "it belongs to another listing of " + aggregateName);
    }
    Map<String, AttributeValue> position = new LinkedHashMap<>();
    for (String pair : Arrays.asList(fields).subList(2, fields.length)) {
      int equals = pair.indexOf('=');
      Optional<String> value = equals <= 0 ? Optional.empty() : unbase64(pair.substring(equals + 1));
      if (value.isEmpty() || position.put(pair.substring(0, equals), AttributeValue.fromS(value.get())) != null) {
        throw malformed();
      }
    }
    return read.apply(position).orElseThrow(() -> invalid(Problem.MALFORMED,
        "it holds no position " + query + " can go on from"));
  }

  /** A {@code listBy} tag without its value's hash, which means nothing to a reader. */
  private static String query(String tag) {
    return tag.startsWith(BY) && tag.lastIndexOf(VERSION_END) >= BY.length()
        ? tag.substring(0, tag.lastIndexOf(VERSION_END))
        : tag;
  }

  /** Whether a message may repeat {@code fromCursor}, a name read out of a cursor (see {@link #SHOWN}). */
  private static boolean shown(String fromCursor) {
    return SHOWN.matcher(fromCursor).matches();
  }

  private InvalidCursorException malformed() {
    return invalid(Problem.MALFORMED, "it is no cursor an esgen page returned, or it was cut short or changed");
  }

  private InvalidCursorException invalid(Problem problem, String detail) {
    return new InvalidCursorException(aggregateName, query, problem, detail);
  }

  private static String crc(CharSequence text) {
    CRC32 crc = new CRC32();
    crc.update(text.toString().getBytes(StandardCharsets.UTF_8));
    return String.format("%08x", crc.getValue());
  }

  private static byte[] sha256(String value) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(value.getBytes(StandardCharsets.UTF_8));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java platform has SHA-256", e);
    }
  }

  private static String base64(String value) {
    byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
    return base64(bytes, bytes.length);
  }

  private static String base64(byte[] bytes, int length) {
    return Base64.getUrlEncoder().withoutPadding().encodeToString(Arrays.copyOf(bytes, length));
  }

  private static Optional<String> unbase64(String text) {
    try {
      return Optional.of(new String(Base64.getUrlDecoder().decode(text), StandardCharsets.UTF_8));
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
  }
}
