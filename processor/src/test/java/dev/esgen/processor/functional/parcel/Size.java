package dev.esgen.processor.functional.parcel;

public enum Size {
  SMALL,
  LARGE
}
