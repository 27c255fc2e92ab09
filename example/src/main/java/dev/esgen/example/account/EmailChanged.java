package dev.esgen.example.account;

import dev.esgen.annotations.EventType;

/** The owner gave a new e-mail address; the old one becomes free for other accounts. */
@EventType("email-changed")
public record EmailChanged(String email) implements AccountEvent {}
