package dev.esgen.processor.functional.parcel;

/** A record without components: Jackson writes it as {@code {}} and reads it back. */
public record Fragile() {}
