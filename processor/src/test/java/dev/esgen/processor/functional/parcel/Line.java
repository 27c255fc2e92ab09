package dev.esgen.processor.functional.parcel;

public record Line(String sku, int quantity) {}
