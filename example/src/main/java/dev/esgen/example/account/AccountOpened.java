package dev.esgen.example.account;

import dev.esgen.annotations.EventType;
import java.time.Instant;

@EventType("account-opened")
public record AccountOpened(AccountId id, String owner, String email, Instant openedAt) implements AccountEvent {}
