package dev.esgen.processor.functional.bank;

import java.util.UUID;

public record AccountId(UUID value) {}
