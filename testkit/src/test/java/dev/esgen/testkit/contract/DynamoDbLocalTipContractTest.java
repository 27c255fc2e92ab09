package dev.esgen.testkit.contract;

import dev.esgen.runtime.EventStore;
import dev.esgen.testkit.junit.Backend;
import dev.esgen.testkit.junit.EsgenTestExtension;
import dev.esgen.testkit.time.MutableClock;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The storage contract on DynamoDB Local, tip layout. */
class DynamoDbLocalTipContractTest extends TipStoreContract {

  private static final RecordingListener LISTENER = new RecordingListener();

  @RegisterExtension
  static final EsgenTestExtension ESGEN = EsgenTestExtension.create()
      .withBackend(Backend.DYNAMODB_LOCAL)
      .withConfig(config -> config.withListener(LISTENER));

  DynamoDbLocalTipContractTest(EventStore store, MutableClock clock) {
    super(store, clock, LISTENER);
  }
}
