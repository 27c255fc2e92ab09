package dev.esgen.processor.functional.parcel;

public record Pair<A, B>(A first, B second) {}
