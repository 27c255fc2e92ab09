package fixture;

import java.util.UUID;

public record AccountId(UUID value) {}
