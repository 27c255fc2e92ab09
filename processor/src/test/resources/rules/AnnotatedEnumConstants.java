package fixture;

import dev.esgen.annotations.AggregateId;
import dev.esgen.annotations.Indexed;
import dev.esgen.annotations.Unique;

enum Color {
  @Indexed RED,
  @Unique GREEN,
  @AggregateId BLUE,
  WHITE
}
