package dev.esgen.processor;

/**
 * How generated code reads one property of an aggregate: a record accessor, a getter or a field.
 *
 * @param name the accessor method's or the field's name
 * @param isField whether it is read as a field rather than by calling a method
 */
record PropertyAccess(String name, boolean isField) {

  /** The Java expression reading the property from the variable {@code target}. */
  public String readFrom(String target) {
    return isField ? target + "." + name : target + "." + name + "()";
  }
}
