package dev.esgen.runtime.internal.index;

import dev.esgen.runtime.index.IndexColumn;
import dev.esgen.runtime.index.IndexColumns;
import dev.esgen.runtime.internal.index.IndexChanges.SlotChange;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * Every index value of a state, written from scratch rather than as a difference: what a reindex (the
 * backfill of columns that became {@code @Indexed} or {@code @Unique} after streams were stored) writes.
 * An append writes only the {@link IndexChanges} between the loaded and the new state, so a value that
 * never changed since its column was declared was never written; this names all of them.
 *
 * <pre>{@code
 * IndexChanges all = IndexBackfill.of("bank-account", columns, account);
 * all.slots();          // one per @Indexed column: its value key, or empty to remove a null value's slot
 * all.reservations();   // one per non-null @Unique value
 * all.releases();       // always empty: which old values the aggregate still holds is not known
 * }</pre>
 */
public final class IndexBackfill {

  private IndexBackfill() {}

  /**
   * A slot change for every {@code @Indexed} column of {@code state} (set for a value, removal for null,
   * in slot order) and a reservation for every non-null {@code @Unique} value.
   *
   * @throws IllegalArgumentException when a key would exceed DynamoDB's 2048-byte key limit
   */
  public static <A> IndexChanges of(String aggregateName, IndexColumns<A> columns, A state) {
    // The changes from no state at all are exactly the non-null values, with their keys checked.
    IndexChanges fromNothing = IndexChanges.between(aggregateName, columns, Optional.empty(), state);
    List<SlotChange> slots = new ArrayList<>(fromNothing.slots());
    List<IndexColumn> slotted = columns.slotted();
    for (int slot = 0; slot < slotted.size(); slot++) {
      int s = slot;
      if (fromNothing.slots().stream().noneMatch(change -> change.slot() == s)) {
        // A null value: a slot written by hand or by an older column in this slot must go.
        slots.add(new SlotChange(slot, slotted.get(slot), Optional.empty()));
      }
    }
    slots.sort(Comparator.comparingInt(SlotChange::slot));
    return new IndexChanges(slots, fromNothing.reservations(), List.of(), fromNothing.values());
  }
}
