package dev.esgen.runtime.internal.tip;

import static dev.esgen.runtime.internal.tip.TipAttributes.AID;
import static dev.esgen.runtime.internal.tip.TipAttributes.APPENDED;
import static dev.esgen.runtime.internal.tip.TipAttributes.INDEX;
import static dev.esgen.runtime.internal.tip.TipAttributes.LISTING;
import static dev.esgen.runtime.internal.tip.TipAttributes.STREAM;
import static dev.esgen.runtime.internal.tip.TipAttributes.VERSION;

import dev.esgen.runtime.aggregate.AggregateDefinition;
import dev.esgen.runtime.config.StoreConfig;
import dev.esgen.runtime.internal.index.IndexBackfill;
import dev.esgen.runtime.internal.keys.TipKeys;
import dev.esgen.runtime.internal.metrics.OperationRecorder;
import dev.esgen.runtime.internal.storage.LoadedStream;
import dev.esgen.runtime.internal.storage.ReindexWriter;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The tip layout's reindex: every index slot of the state on the tip, with the tip's {@code aid} and
 * listing key (which tips written before those attributes existed lack, so they were neither listed nor
 * found by index), and the state's unique reservations, conditioned on the tip's version.
 *
 * <p>Version, events, snapshot and etags stay as they are: the write is no append. An append racing with
 * it either lands first, and this write fails its version condition, or lands after it and finds the
 * index values it changes from as it loaded them. {@code a} is set to 0 because a DynamoDB
 * Streams consumer of the tip reads it as the number of events a change added, and this change added
 * none; without it the consumer would take the last append's events for new ones again.
 */
final class TipReindexer {

  private final StoreConfig config;
  private final ReindexWriter writer;

  TipReindexer(DynamoDbClient client, StoreConfig config, OperationRecorder recorder) {
    this.config = config;
    this.writer = new ReindexWriter(client, config.snapshotTable(), recorder::currentBudget);
  }

  <A, I, E> void reindex(AggregateDefinition<A, I, E> definition, LoadedStream<A> stream) {
    String aid = definition.keys().idString(definition.keys().idOf(stream.state()));
    TipKeys keys = new TipKeys(definition.name());
    Map<String, AttributeValue> tip = Map.of(
        STREAM, AttributeValue.fromS(keys.streamName(aid)),
        INDEX, AttributeValue.fromN(Long.toString(TipKeys.TIP_INDEX)));
    Map<String, AttributeValue> alsoSet = Map.of(
        AID, AttributeValue.fromS(aid),
        LISTING, AttributeValue.fromS(keys.listingKey(aid, definition.shards())),
        APPENDED, AttributeValue.fromN("0"));
    writer.write(
        new ReindexWriter.Target(definition.name(), aid, stream.version(), config.tipTable(), tip, VERSION, alsoSet,
            stream.position() instanceof TipPosition position ? position.tipAttributeBytes() : Map.of()),
        IndexBackfill.of(definition.name(), definition.indexColumns(), stream.state()));
  }
}
