package dev.esgen.runtime.internal.index;

import dev.esgen.runtime.index.IndexColumn;
import dev.esgen.runtime.index.IndexColumns;
import dev.esgen.runtime.internal.keys.IndexKeys;
import dev.esgen.runtime.internal.keys.KeyStrings;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * What one append changes in an aggregate's index columns, computed from the state before and after it:
 * which index slots get a new value or lose theirs, which unique values are reserved and which released.
 * A column whose value did not change appears nowhere, so such an append writes nothing for it (and
 * causes no index write). Layout-independent: each storage layout turns these into its own writes.
 *
 * <pre>{@code
 * IndexChanges changes = IndexChanges.between("bank-account", columns, Optional.of(before), after);
 * changes.reservations();   // [email 'ann@new.example'] when the email changed
 * changes.releases();       // [email 'ann@old.example']
 * }</pre>
 *
 * @param slots the {@code @Indexed} columns whose value changed
 * @param reservations the {@code @Unique} values the aggregate takes
 * @param releases the {@code @Unique} values the aggregate gives up
 * @param values every column's value in the state after, as {@link IndexColumns#values} gives them: a
 *     layout that stores all of them (the tip) reads them here rather than from the state again
 */
public record IndexChanges(List<SlotChange> slots, List<UniqueChange> reservations, List<UniqueChange> releases,
    Map<String, String> values) {

  public IndexChanges {
    slots = List.copyOf(slots);
    reservations = List.copyOf(reservations);
    releases = List.copyOf(releases);
    values = Collections.unmodifiableMap(values);
  }

  /**
   * A new value (or none) for the {@code @Indexed} column in {@code slot}.
   *
   * @param key the new value key {@code {aggregate}#{column}#{value}}, empty when the value became null
   */
  public record SlotChange(int slot, IndexColumn column, Optional<String> key) {}

  /**
   * A {@code @Unique} value taken or given up.
   *
   * @param value the value's stored string form, as the aggregate holds it (for messages)
   * @param key the reservation item's partition key, built from the normalised value
   */
  public record UniqueChange(IndexColumn column, String value, String key) {}

  /**
   * The changes from {@code before} (empty when the stream is being created) to {@code after}.
   *
   * @throws IllegalArgumentException when a key would exceed DynamoDB's 2048-byte key limit
   */
  public static <A> IndexChanges between(
      String aggregateName, IndexColumns<A> columns, Optional<A> before, A after) {
    Objects.requireNonNull(after, "after");
    if (columns.columns().isEmpty()) {
      return new IndexChanges(List.of(), List.of(), List.of(), Map.of());
    }
    Map<String, String> old = before.map(columns::values).orElse(Map.of());
    Map<String, String> now = columns.values(after);
    List<SlotChange> slots = new ArrayList<>();
    List<UniqueChange> reservations = new ArrayList<>();
    List<UniqueChange> releases = new ArrayList<>();
    int slot = 0;
    for (IndexColumn column : columns.columns()) {
      String oldValue = old.get(column.name());
      String newValue = now.get(column.name());
      if (column.unique()) {
        String oldNormal = oldValue == null ? null : column.normalize(oldValue);
        String newNormal = newValue == null ? null : column.normalize(newValue);
        if (!Objects.equals(oldNormal, newNormal)) {
          if (newNormal != null) {
            reservations.add(new UniqueChange(column, newValue, key(aggregateName, column, newNormal)));
          }
          // A value no key can hold (stored before the column was @Unique) was never reserved: there is
          // nothing to give up, and refusing it here would keep the aggregate from ever changing it.
          if (oldNormal != null && IndexKeys.fits(aggregateName, column, oldValue)) {
            releases.add(new UniqueChange(column, oldValue, key(aggregateName, column, oldNormal)));
          }
        }
      } else {
        if (!Objects.equals(oldValue, newValue)) {
          slots.add(new SlotChange(slot, column,
              Optional.ofNullable(newValue).map(v -> key(aggregateName, column, v))));
        }
        slot++;
      }
    }
    return new IndexChanges(slots, reservations, releases, now);
  }

  /** Whether the append changes no index column at all. */
  public boolean isEmpty() {
    return slots.isEmpty() && reservations.isEmpty() && releases.isEmpty();
  }

  private static String key(String aggregateName, IndexColumn column, String value) {
    int unpaired = KeyStrings.unpairedSurrogate(value);
    if (unpaired >= 0) {
      throw new IllegalArgumentException(aggregateName + " " + column.name() + ": a value must be well-formed Unicode; "
          + KeyStrings.unpairedSurrogateReason(unpaired));
    }
    String key = IndexKeys.valueKey(aggregateName, column.name(), value);
    int bytes = key.getBytes(StandardCharsets.UTF_8).length;
    if (bytes > IndexKeys.KEY_LIMIT_BYTES) {
      throw new IllegalArgumentException(aggregateName + " " + column.name() + ": a value of " + bytes
          + " bytes with its prefix exceeds DynamoDB's key limit of " + IndexKeys.KEY_LIMIT_BYTES + " bytes");
    }
    return key;
  }
}
