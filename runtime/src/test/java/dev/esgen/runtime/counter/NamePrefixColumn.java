package dev.esgen.runtime.counter;

import dev.esgen.runtime.index.IndexColumn;
import dev.esgen.runtime.index.IndexColumns;
import java.util.List;
import java.util.Map;

/**
 * Indexes the first 1,000 characters of a counter's name: a slot of about 1 KB that every append leaves
 * unchanged, for tests of item sizes near DynamoDB's 400 KB.
 */
public final class NamePrefixColumn implements IndexColumns<Counter> {

  @Override
  public List<IndexColumn> columns() {
    return List.of(IndexColumn.indexed("name"));
  }

  @Override
  public Map<String, String> values(Counter state) {
    return Map.of("name", state.name().substring(0, Math.min(1_000, state.name().length())));
  }
}
