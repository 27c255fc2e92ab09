package dev.esgen.processor.functional.evolve;

import dev.esgen.runtime.aggregate.AggregateDefinition;
import dev.esgen.runtime.config.StoreConfig;
import java.util.List;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/** What each compiled version of the wallet domain offers the test, seen through the test's class loader. */
public interface WalletDriver {

  /** Builds the repository on a store of its own over {@code client}, on the journal or the tip layout. */
  void init(DynamoDbClient client, StoreConfig config, boolean tip);

  AggregateDefinition<?, ?, ?> definition();

  /** Creates wallet {@code id}; returns its seq_nr. */
  long create(String id, String owner);

  /** Appends the events of {@code commands} ("credit:5", "tag:x", ...) in one transact; returns the seq_nr. */
  long act(String id, String... commands);

  /** The loaded state's toString. */
  String load(String id);

  /** "seqNr type event" for each recorded event from {@code from}. */
  List<String> history(String id, long from);

  /** The fingerprint of this version's snapshots. */
  String fingerprint();
}
