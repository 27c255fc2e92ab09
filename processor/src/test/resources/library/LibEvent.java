package lib;

import dev.esgen.annotations.DomainEvents;

/** Compiled first, into a class file: nothing below has a line when esgen reads it. */
@DomainEvents
public sealed interface LibEvent permits LibOpened, Hidden, Colors, Open {
  static LibEvent hidden() {
    return new Hidden(1);
  }
}
