package dev.esgen.processor.functional.library;

public record Shelf(String code) {}
