package dev.esgen.runtime.query;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Turns DynamoDB's {@code LastEvaluatedKey} (string attributes only, as esgen's keys are) into an
 * opaque cursor and back: URL-safe Base64 of {@code name=base64(value)} pairs separated by
 * {@code ;}, behind a version prefix (values are encoded so that any character in them is safe). Users must not rely on the format; they only hand cursors back.
 *
 * <pre>{@code
 * String cursor = Cursors.encode(response.lastEvaluatedKey());
 * Map<String, AttributeValue> start = Cursors.decode(cursor);
 * }</pre>
 */
public final class Cursors {

  private static final String VERSION = "1:";
  private static final char SEPARATOR = ';';

  private Cursors() {}

  public static String encode(Map<String, AttributeValue> key) {
    StringBuilder text = new StringBuilder(VERSION);
    boolean first = true;
    for (Map.Entry<String, AttributeValue> entry : new TreeMap<>(key).entrySet()) {
      if (entry.getValue().s() == null) {
        throw new IllegalArgumentException("cursor keys must be strings, " + entry.getKey() + " is not");
      }
      if (!first) {
        text.append(SEPARATOR);
      }
      text.append(entry.getKey()).append('=').append(base64(entry.getValue().s()));
      first = false;
    }
    return Base64.getUrlEncoder().withoutPadding().encodeToString(text.toString().getBytes(StandardCharsets.UTF_8));
  }

  /** @throws IllegalArgumentException when {@code cursor} was not made by {@link #encode} */
  public static Map<String, AttributeValue> decode(String cursor) {
    String text;
    try {
      text = new String(Base64.getUrlDecoder().decode(cursor), StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      throw invalid(cursor);
    }
    if (!text.startsWith(VERSION) || text.length() == VERSION.length()) {
      throw invalid(cursor);
    }
    Map<String, AttributeValue> key = new LinkedHashMap<>();
    for (String pair : text.substring(VERSION.length()).split(String.valueOf(SEPARATOR), -1)) {
      int equals = pair.indexOf('=');
      if (equals <= 0) {
        throw invalid(cursor);
      }
      try {
        key.put(pair.substring(0, equals), AttributeValue.fromS(new String(
            Base64.getUrlDecoder().decode(pair.substring(equals + 1)), StandardCharsets.UTF_8)));
      } catch (IllegalArgumentException e) {
        throw invalid(cursor);
      }
    }
    return key;
  }

  private static String base64(String value) {
    return Base64.getUrlEncoder().withoutPadding().encodeToString(value.getBytes(StandardCharsets.UTF_8));
  }

  private static IllegalArgumentException invalid(String cursor) {
    return new IllegalArgumentException("'" + cursor + "' is not a cursor returned by an esgen page");
  }
}
