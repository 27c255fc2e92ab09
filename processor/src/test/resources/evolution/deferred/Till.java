package fixture;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.esgen.annotations.Aggregate;
import dev.esgen.annotations.AggregateId;
import dev.esgen.annotations.DomainEvents;
import dev.esgen.annotations.EventType;
import dev.esgen.annotations.Upcast;
import java.util.List;

@DomainEvents(upcasters = TillUpcasters.class)
sealed interface TillEvent permits TillOpened {}

/** {@code TillVersions} and its constants do not exist until another processor generates them. */
@EventType(value = "till-opened", version = 2)
record TillOpened(String id) implements TillEvent {
  @Upcast(from = TillVersions.FIRST)
  static ObjectNode idWasNumber(ObjectNode v1) {
    return v1.put("id", "T" + v1.get("number").asInt());
  }
}

final class TillUpcasters {
  @Upcast(type = TillVersions.RETIRED, from = 1)
  static List<TillEvent> reopened(ObjectNode v1) {
    return List.of(new TillOpened(v1.get("id").asText()));
  }
}

@Aggregate(name = "till", events = TillEvent.class)
record Till(@AggregateId String id) {
  static Till open(TillOpened e) {
    return new Till(e.id());
  }
}
