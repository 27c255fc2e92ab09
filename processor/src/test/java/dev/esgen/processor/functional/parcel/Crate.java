package dev.esgen.processor.functional.parcel;

import java.util.Objects;

/**
 * A class with an inner (non-static) class as a field: Jackson builds the crate first, through its
 * no-argument constructor, and then the lid on it.
 */
public final class Crate {
  public String material;
  public Lid lid;

  public Crate() {}

  public Crate(String material, String lidColor) {
    this.material = material;
    this.lid = new Lid();
    this.lid.color = lidColor;
  }

  public final class Lid {
    public String color;

    @Override
    public boolean equals(Object other) {
      return other instanceof Lid that && Objects.equals(that.color, color);
    }

    @Override
    public int hashCode() {
      return Objects.hashCode(color);
    }
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof Crate that && Objects.equals(that.material, material) && Objects.equals(that.lid, lid);
  }

  @Override
  public int hashCode() {
    return Objects.hash(material, lid);
  }
}
