package fixture;

public record ThingOpened(String id) implements ThingEvent {}
