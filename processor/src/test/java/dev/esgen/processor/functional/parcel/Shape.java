package dev.esgen.processor.functional.parcel;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;

/** An interface Jackson reads back because it says which class each value is. */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME)
@JsonSubTypes({@JsonSubTypes.Type(value = Shape.Box.class, name = "box"), @JsonSubTypes.Type(value = Shape.Tube.class, name = "tube")})
public interface Shape {

  record Box(int width, int height, int depth) implements Shape {}

  record Tube(int length, int diameter) implements Shape {}
}
