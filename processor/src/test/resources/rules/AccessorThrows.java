package fixture;

import dev.esgen.annotations.Aggregate;
import dev.esgen.annotations.AggregateId;
import dev.esgen.annotations.DomainEvents;
import dev.esgen.annotations.Indexed;
import java.io.IOException;

@DomainEvents
sealed interface DeskEvent permits DeskOpened {}

record DeskOpened(String id, String owner) implements DeskEvent {}

@Aggregate(name = "desk", events = DeskEvent.class)
final class Desk {
  @AggregateId private String id;
  @Indexed private String owner;
  @Indexed private String name;

  public Desk() {}

  public String getId() throws IOException {
    return id;
  }

  public String getOwner() throws Exception {
    return owner;
  }

  // A throwing x() beside a plain getX(): the generated code calls getX(), no error.
  String name() throws IOException {
    return name;
  }

  public String getName() {
    return name;
  }

  static Desk open(DeskOpened e) {
    Desk desk = new Desk();
    desk.id = e.id();
    desk.owner = e.owner();
    return desk;
  }
}
