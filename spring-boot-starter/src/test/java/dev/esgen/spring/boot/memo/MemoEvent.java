package dev.esgen.spring.boot.memo;

import dev.esgen.annotations.DomainEvents;

/** What happens to a memo. */
@DomainEvents
sealed interface MemoEvent permits MemoWritten {}
