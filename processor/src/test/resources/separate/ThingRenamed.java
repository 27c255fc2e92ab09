package fixture;

public record ThingRenamed(String name) implements ThingEvent {}
