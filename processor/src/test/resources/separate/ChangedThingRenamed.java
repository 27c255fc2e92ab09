package fixture;

/** ThingRenamed changed without recompiling ThingEvent: it no longer implements it. */
record ThingRenamed(String name) {}
