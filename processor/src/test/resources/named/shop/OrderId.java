package shop;

import java.util.UUID;

public record OrderId(UUID value) {}
