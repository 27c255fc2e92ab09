package dev.esgen.bench.codec;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import dev.esgen.bench.domain.CartId;
import java.time.Instant;
import java.util.List;

/**
 * The benchmark's events the way users hand-write them today: one {@code ObjectMapper} and Jackson
 * polymorphism declared on the sealed interface, the type name inside the JSON body. A copy of
 * {@link dev.esgen.bench.domain.CartEvent}'s records, because the annotations would otherwise change
 * what esgen's generated codec writes.
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "type")
@JsonSubTypes({
    @JsonSubTypes.Type(value = HandWrittenCartEvent.Opened.class, name = "cart-opened"),
    @JsonSubTypes.Type(value = HandWrittenCartEvent.ItemAdded.class, name = "item-added"),
    @JsonSubTypes.Type(value = HandWrittenCartEvent.LinesAdded.class, name = "lines-added"),
    @JsonSubTypes.Type(value = HandWrittenCartEvent.OwnerChanged.class, name = "owner-changed"),
    @JsonSubTypes.Type(value = HandWrittenCartEvent.CodeChanged.class, name = "code-changed")
})
public sealed interface HandWrittenCartEvent {

  record Opened(CartId id, String owner, String code, Instant at) implements HandWrittenCartEvent {}

  record ItemAdded(String sku, int quantity, long priceCents) implements HandWrittenCartEvent {}

  record OwnerChanged(String owner) implements HandWrittenCartEvent {}

  record CodeChanged(String code) implements HandWrittenCartEvent {}

  record LinesAdded(List<dev.esgen.bench.domain.LinesAdded.Line> lines) implements HandWrittenCartEvent {

    static LinesAdded twoKilobytes() {
      return new LinesAdded(dev.esgen.bench.domain.LinesAdded.twoKilobytes().lines());
    }
  }
}
