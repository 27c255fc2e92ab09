package dev.esgen.processor.functional.tag;

/** A tag's id: a path-like string chosen by the caller. */
public record TagId(String value) {}
