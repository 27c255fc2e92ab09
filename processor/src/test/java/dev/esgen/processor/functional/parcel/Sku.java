package dev.esgen.processor.functional.parcel;

import com.fasterxml.jackson.annotation.JsonValue;

/** A map key that says how it is written ({@code @JsonValue}) and is read back by its canonical constructor. */
public record Sku(@JsonValue String value) {}
