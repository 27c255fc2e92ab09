package dev.esgen.runtime.internal.journal;

import static dev.esgen.runtime.internal.journal.JournalAttributes.PKEY;
import static dev.esgen.runtime.internal.journal.JournalAttributes.SKEY;
import static dev.esgen.runtime.internal.journal.JournalAttributes.VERSION;

import dev.esgen.runtime.aggregate.AggregateDefinition;
import dev.esgen.runtime.config.StoreConfig;
import dev.esgen.runtime.internal.index.IndexBackfill;
import dev.esgen.runtime.internal.keys.JournalKeys;
import dev.esgen.runtime.internal.metrics.OperationRecorder;
import dev.esgen.runtime.internal.storage.LoadedStream;
import dev.esgen.runtime.internal.storage.ReindexWriter;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The journal layout's reindex: every index slot of the state on the head row, and the state's unique
 * reservations, conditioned on the head row's version, which stays as it is. An aggregate without index
 * columns has nothing to write and costs no request.
 */
final class JournalReindexer {

  private final StoreConfig config;
  private final ReindexWriter writer;

  JournalReindexer(DynamoDbClient client, StoreConfig config, OperationRecorder recorder) {
    this.config = config;
    this.writer = new ReindexWriter(client, config.snapshotTable(), recorder::currentBudget);
  }

  <A, I, E> void reindex(AggregateDefinition<A, I, E> definition, LoadedStream<A> stream) {
    String aid = definition.keys().idString(definition.keys().idOf(stream.state()));
    JournalKeys keys = new JournalKeys(definition.name(), definition.shards());
    Map<String, AttributeValue> head = Map.of(
        PKEY, AttributeValue.fromS(keys.partitionKey(aid)),
        SKEY, AttributeValue.fromS(keys.headSortKey(aid)));
    writer.write(
        new ReindexWriter.Target(definition.name(), aid, stream.version(), config.snapshotTable(), head, VERSION,
            Map.of(), stream.position() instanceof JournalPosition position ? position.headAttributeBytes() : Map.of()),
        IndexBackfill.of(definition.name(), definition.indexColumns(), stream.state()));
  }
}
