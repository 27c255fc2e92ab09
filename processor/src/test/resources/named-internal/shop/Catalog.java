package shop;

/** The public type the package is exported for. */
public final class Catalog {
  private Catalog() {}
}
