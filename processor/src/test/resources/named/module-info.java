/** A user's domain in a named module, with the module-info docs/annotations.md tells users to write. */
module shop {
  // Transitive, because the exported package's API uses their types: the esgen annotations on the
  // domain, the runtime types the generated classes implement, and Jackson's ObjectMapper, which the
  // generated codecs take.
  requires transitive dev.esgen.annotations;
  requires transitive dev.esgen.runtime;
  requires transitive com.fasterxml.jackson.databind;

  exports shop;
  // Jackson reads and writes the events and the state by reflection.
  opens shop to com.fasterxml.jackson.databind;
}
