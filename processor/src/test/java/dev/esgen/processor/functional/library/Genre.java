package dev.esgen.processor.functional.library;

public enum Genre {
  FICTION,
  SCIENCE;

  @Override
  public String toString() {
    return "genre " + name().toLowerCase(java.util.Locale.ROOT);
  }
}
