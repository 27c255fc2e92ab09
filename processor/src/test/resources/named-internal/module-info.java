module shop {
  requires transitive dev.esgen.annotations;
  requires transitive dev.esgen.runtime;
  requires transitive com.fasterxml.jackson.databind;

  exports shop;
  opens shop to com.fasterxml.jackson.databind;
}
