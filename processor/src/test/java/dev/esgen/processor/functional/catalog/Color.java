package dev.esgen.processor.functional.catalog;

public enum Color {
  RED,
  GREEN,
  BLUE
}
