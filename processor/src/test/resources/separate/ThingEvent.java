package fixture;

import dev.esgen.annotations.DomainEvents;

/** Compiled first, on its own: its class file permits the ThingRenamed of that compilation. */
@DomainEvents
public sealed interface ThingEvent permits ThingOpened, ThingRenamed {}
