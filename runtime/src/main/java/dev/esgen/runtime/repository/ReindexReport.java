package dev.esgen.runtime.repository;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What {@link EventSourcedRepository#reindexAll()} (or one page of it) did: how many streams got all
 * their index values written, and which could not because another aggregate holds one of their
 * {@code @Unique} values. Those are left for a person to resolve (change one of the two values with an
 * append); running the reindex again afterwards writes the rest.
 *
 * <pre>{@code
 * ReindexReport<AccountId> report = accounts.reindexAll();
 * log.info("{} accounts reindexed", report.reindexed());
 * for (ReindexReport.Duplicate<AccountId> d : report.duplicates()) {
 *   log.warn("{}: its {} is also held by {}", d.id(), d.column(), d.holder().orElse(null));
 * }
 * }</pre>
 *
 * @param reindexed how many streams had every index value written
 * @param duplicates the streams whose values were not written, one entry each
 * @param nextCursor where the listing goes on, for {@code reindexAll(PageRequest)} one page at a time;
 *     empty when every stream was reached
 * @param <I> the aggregate's id type
 */
public record ReindexReport<I>(long reindexed, List<Duplicate<I>> duplicates, Optional<String> nextCursor) {

  /** Keeps a copy of {@code duplicates}. */
  public ReindexReport {
    duplicates = List.copyOf(duplicates);
    Objects.requireNonNull(nextCursor, "nextCursor");
  }

  /**
   * A stream whose index values were not written: its value in a {@code @Unique} column is taken (the
   * first such value found; the stream may hold more).
   *
   * <pre>{@code
   * for (ReindexReport.Duplicate<AccountId> duplicate : accounts.reindexAll().duplicates()) {
   *   log.warn("{} cannot take its {}: held by {}", duplicate.id(), duplicate.column(),
   *       duplicate.holder().map(String::valueOf).orElse("another account"));
   * }
   * }</pre>
   *
   * @param id the stream's aggregate
   * @param column the column's stored name
   * @param value the value as the aggregate holds it; left out of {@link #toString()}, since index values are
   *     often personal data and a duplicate is typically logged
   * @param holder the aggregate holding the value, when DynamoDB reported it
   */
  public record Duplicate<I>(I id, String column, String value, Optional<I> holder) {

    /** The id, the column and the holder; never the value. */
    @Override
    public String toString() {
      return "Duplicate[id=" + id + ", column=" + column + ", holder=" + holder.map(String::valueOf).orElse("unknown") + "]";
    }
  }
}
