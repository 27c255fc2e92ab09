package dev.esgen.processor.functional.catalog;

public record Barcode(String value) {}
