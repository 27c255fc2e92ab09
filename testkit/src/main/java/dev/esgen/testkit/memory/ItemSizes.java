package dev.esgen.testkit.memory;

import dev.esgen.runtime.aggregate.AggregateDefinition;
import dev.esgen.runtime.index.IndexColumn;
import dev.esgen.runtime.internal.item.ItemSize;
import dev.esgen.runtime.internal.item.MetadataAttributes;
import dev.esgen.runtime.internal.keys.IndexKeys;
import dev.esgen.runtime.internal.storage.AppendRequest;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * DynamoDB's size rules ({@link ItemSize}) for the parts of an item the in-memory store adds up without
 * building the item: an attribute costs its name's UTF-8 length plus its value's size, a string its UTF-8
 * length, a binary its length, a number one byte per two significant digits plus one, a list or map 3 bytes
 * plus one per element on top of the elements.
 *
 * <pre>{@code
 * long seqNr = ItemSizes.attribute("seq_nr", ItemSizes.number(42));   // 6 + 2
 * }</pre>
 */
final class ItemSizes {

  private ItemSizes() {}

  /** An attribute {@code name} whose value has {@code valueBytes}. */
  static long attribute(String name, long valueBytes) {
    return utf8(name) + valueBytes;
  }

  /** A string attribute value, or a name: its UTF-8 length, as {@code String.getBytes(UTF_8)} counts it. */
  static long utf8(String text) {
    long bytes = 0;
    int length = text.length();
    for (int i = 0; i < length; i++) {
      char c = text.charAt(i);
      if (c < 0x80) {
        bytes += 1;
      } else if (c < 0x800) {
        bytes += 2;
      } else if (Character.isHighSurrogate(c) && i + 1 < length && Character.isLowSurrogate(text.charAt(i + 1))) {
        bytes += 4;
        i++;
      } else if (Character.isSurrogate(c)) {
        // An unpaired surrogate: the UTF-8 encoder writes '?' in its place.
        bytes += 1;
      } else {
        bytes += 3;
      }
    }
    return bytes;
  }

  /** A number attribute value holding {@code value}, zero or more. */
  static long number(long value) {
    long significant = value;
    while (significant != 0 && significant % 10 == 0) {
      significant /= 10;
    }
    int digits = significant == 0 ? 1 : Long.toString(significant).length();
    return (digits + 1) / 2 + 1;
  }

  /** An event's version attribute {@code name}: none, 0 bytes, at version 1, as the layouts store it. */
  static long eventVersion(String name, int version) {
    return version == 1 ? 0 : attribute(name, number(version));
  }

  /** A list or map value of {@code elements} elements whose own sizes add up to {@code elementBytes}. */
  static long container(long elements, long elementBytes) {
    return 3 + elements + elementBytes;
  }

  /**
   * The index slot attributes the item carrying {@code state}'s version holds (the journal's head row, the
   * tip): one per {@code @Indexed} column whose value is not null.
   */
  static <A> long indexSlots(AggregateDefinition<A, ?, ?> definition, A state) {
    Map<String, String> values = definition.indexColumns().values(state);
    List<IndexColumn> slotted = definition.indexColumns().slotted();
    long bytes = 0;
    for (int slot = 0; slot < slotted.size(); slot++) {
      String value = values.get(slotted.get(slot).name());
      if (value != null) {
        bytes += attribute(IndexKeys.slotAttribute(slot),
            utf8(IndexKeys.valueKey(definition.name(), slotted.get(slot).name(), value)));
      }
    }
    return bytes;
  }

  /** The append's metadata as a map attribute {@code name}, 0 when the append has none. */
  static long metadata(AppendRequest<?, ?, ?> request, String name,
      MetadataAttributes names) {
    return request.metadata().isEmpty() ? 0 : attribute(name, map(names.toAttribute(request.metadata())));
  }

  /** A map value holding {@code map}, measured by the runtime's own rules. */
  static long map(AttributeValue map) {
    return ItemSize.of(Map.of("", map));
  }
}
