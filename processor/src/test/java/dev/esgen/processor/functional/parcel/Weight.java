package dev.esgen.processor.functional.parcel;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;

/** A class with a getter, built back through a @JsonCreator. */
public final class Weight {
  private final long grams;

  @JsonCreator
  public Weight(@JsonProperty("grams") long grams) {
    this.grams = grams;
  }

  public long getGrams() {
    return grams;
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof Weight weight && weight.grams == grams;
  }

  @Override
  public int hashCode() {
    return Long.hashCode(grams);
  }
}
