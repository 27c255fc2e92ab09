package dev.esgen.spring.boot.memo;

/** A memo was written. */
record MemoWritten(String id, String author) implements MemoEvent {}
