package dev.esgen.runtime.index;

import java.util.List;
import java.util.Map;

/** {@link IndexColumns#none()}: one shared instance, since it holds nothing of any aggregate type. */
final class NoIndexColumns implements IndexColumns<Object> {

  private static final NoIndexColumns INSTANCE = new NoIndexColumns();

  private NoIndexColumns() {}

  @SuppressWarnings("unchecked")
  static <A> IndexColumns<A> instance() {
    // Safe: no method reads anything of the state it is given.
    return (IndexColumns<A>) (IndexColumns<?>) INSTANCE;
  }

  @Override
  public List<IndexColumn> columns() {
    return List.of();
  }

  @Override
  public Map<String, String> values(Object state) {
    return Map.of();
  }
}
