package dev.esgen.runtime.internal.journal;

import dev.esgen.runtime.aggregate.AggregateDefinition;
import dev.esgen.runtime.error.CorruptStreamException;

/**
 * The error for a listed head row found in another partition than the definition's shard count puts its
 * stream in: after a change of {@code shards} the row stays where it was written. The journal layout and the
 * test kit's in-memory store report it in the same words.
 *
 * <pre>{@code
 * throw MisplacedHeadRow.error(definition, aid, "bank-account-2", keys.partitionKey(aid));
 * }</pre>
 */
public final class MisplacedHeadRow {

  private MisplacedHeadRow() {}

  /**
   * The error naming both partitions and the remedy.
   *
   * @param stored the partition the head row is in
   * @param expected the partition the definition's shard count puts the stream in
   */
  public static CorruptStreamException error(AggregateDefinition<?, ?, ?> definition, String aid, String stored,
      String expected) {
    return new CorruptStreamException(definition.name(), aid, "its head row is in partition " + stored
        + ", but with shards = " + definition.shards() + " it belongs in " + expected + ": the shard count"
        + " changed after the stream was written. It is fixed once data is written: deploy with the count"
        + " the data was written with");
  }
}
