package dev.esgen.runtime.counter;

import java.util.List;

/** A small aggregate for the runtime's tests: a named counter that also counts notes. */
public record Counter(CounterId id, String name, long value, int notes, String lastNote) {

  static Counter create(CounterCreated e) {
    return new Counter(e.id(), e.name(), 0, 0, "");
  }

  Counter apply(Incremented e) {
    return new Counter(id, name, value + e.by(), notes, lastNote);
  }

  Counter apply(Noted e) {
    return new Counter(id, name, value, notes + 1, e.text().length() > 64 ? "" : e.text());
  }

  public List<CounterEvent> increment(String tag) {
    return List.of(new Incremented(1, tag));
  }
}
