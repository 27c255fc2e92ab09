package dev.esgen.runtime.internal.item;

import java.math.BigDecimal;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Computes an item's size the way DynamoDB counts it against the 400 KB item limit, so layouts can
 * refuse an oversized write before sending anything.
 *
 * <p>DynamoDB's rules: each attribute costs its name's UTF-8 length plus its value's size. A string is
 * its UTF-8 length, a binary its raw length, a number about one byte per two significant digits plus
 * one, a boolean or null one byte; lists and maps cost 3 bytes plus one byte per element on top of
 * their elements (map keys count like attribute names).
 *
 * <pre>{@code
 * long bytes = ItemSize.of(Map.of("pkey", AttributeValue.fromS("account-3")));   // 4 + 9 = 13
 * }</pre>
 */
public final class ItemSize {

  private ItemSize() {}

  /** The size of {@code item} in bytes, attribute names included. */
  public static long of(Map<String, AttributeValue> item) {
    long size = 0;
    for (Map.Entry<String, AttributeValue> attribute : item.entrySet()) {
      size += utf8Length(attribute.getKey()) + valueSize(attribute.getValue());
    }
    return size;
  }

  /**
   * The size of each attribute of {@code item}, by name, its name included: what an update that leaves
   * some of them in place needs to know of the item it changes.
   */
  public static Map<String, Long> ofEach(Map<String, AttributeValue> item) {
    // twice the entries: room for all of them below the default load factor, so the map never grows
    Map<String, Long> sizes = new HashMap<>(2 * item.size());
    for (Map.Entry<String, AttributeValue> attribute : item.entrySet()) {
      sizes.put(attribute.getKey(), utf8Length(attribute.getKey()) + valueSize(attribute.getValue()));
    }
    return sizes;
  }

  /** The size of the item whose attributes' sizes {@code sizes} holds (from {@link #ofEach}). */
  public static long total(Map<String, Long> sizes) {
    long size = 0;
    for (long attribute : sizes.values()) {
      size += attribute;
    }
    return size;
  }

  /**
   * The size of a list attribute named {@code name} holding {@code elements}, its name included: what
   * {@link #of} counts for it, without building the attribute (which would copy the list).
   */
  public static long ofList(String name, List<AttributeValue> elements) {
    return utf8Length(name) + containerSize(elements);
  }

  private static long valueSize(AttributeValue value) {
    switch (value.type()) {
      case S:
        return utf8Length(value.s());
      case N:
        return numberSize(value.n());
      case B:
        return value.b().asByteArrayUnsafe().length;
      case BOOL:
      case NUL:
        return 1;
      case SS:
        return value.ss().stream().mapToLong(ItemSize::utf8Length).sum();
      case NS:
        return value.ns().stream().mapToLong(ItemSize::numberSize).sum();
      case BS:
        return value.bs().stream().map(SdkBytes::asByteArrayUnsafe).mapToLong(b -> b.length).sum();
      case L:
        return containerSize(value.l());
      case M:
        return 3 + value.m().size() + of(value.m());
      default:
        throw new IllegalArgumentException("unknown attribute value type " + value.type());
    }
  }

  private static long containerSize(List<AttributeValue> elements) {
    long size = 3 + elements.size();
    for (AttributeValue element : elements) {
      size += valueSize(element);
    }
    return size;
  }

  private static long numberSize(String number) {
    int integerDigits = integerSignificantDigits(number);
    if (integerDigits >= 0) {
      return (integerDigits + 1) / 2 + 1;
    }
    String digits = new BigDecimal(number).stripTrailingZeros().unscaledValue().abs().toString();
    int significant = digits.equals("0") ? 1 : digits.length();
    return (significant + 1) / 2 + 1;
  }

  /**
   * The significant digits of a plain integer such as esgen's versions and seq_nrs (leading and trailing
   * zeros and the sign do not count; zero has one), without parsing it; -1 for any other number.
   */
  private static int integerSignificantDigits(String number) {
    int first = number.startsWith("-") ? 1 : 0;
    int end = number.length();
    if (first == end) {
      return -1;
    }
    for (int i = first; i < end; i++) {
      char c = number.charAt(i);
      if (c < '0' || c > '9') {
        return -1;
      }
    }
    while (first < end && number.charAt(first) == '0') {
      first++;
    }
    while (end > first && number.charAt(end - 1) == '0') {
      end--;
    }
    return Math.max(1, end - first);
  }

  /**
   * What {@code s.getBytes(UTF_8).length} says, counted without encoding: every size check of every
   * append measures its keys, names and strings, and the copy would be thrown away at once. An unpaired
   * surrogate counts 1 byte, as the encoder replaces it with '?'.
   */
  private static long utf8Length(String s) {
    int length = s.length();
    long bytes = length;
    for (int i = 0; i < length; i++) {
      char c = s.charAt(i);
      if (c < 0x80) {
        continue;
      }
      if (c < 0x800) {
        bytes += 1;
      } else if (Character.isHighSurrogate(c) && i + 1 < length && Character.isLowSurrogate(s.charAt(i + 1))) {
        // the pair is 2 chars and 4 bytes
        bytes += 2;
        i++;
      } else if (!Character.isSurrogate(c)) {
        bytes += 2;
      }
    }
    return bytes;
  }
}
