package dev.esgen.processor.functional.parcel;

import java.util.Objects;

/** A class Jackson builds with its no-argument constructor and fills through its public field. */
public final class Label {
  public String text;

  public Label() {}

  public Label(String text) {
    this.text = text;
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof Label label && Objects.equals(label.text, text);
  }

  @Override
  public int hashCode() {
    return Objects.hashCode(text);
  }
}
