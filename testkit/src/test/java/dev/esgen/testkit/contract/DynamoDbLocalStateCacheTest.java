package dev.esgen.testkit.contract;

import dev.esgen.runtime.EventStore;
import dev.esgen.testkit.junit.Backend;
import dev.esgen.testkit.junit.EsgenTestExtension;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The state cache contract on DynamoDB Local. */
class DynamoDbLocalStateCacheTest extends StateCacheContract {

  @RegisterExtension
  static final EsgenTestExtension ESGEN = EsgenTestExtension.create()
      .withBackend(Backend.DYNAMODB_LOCAL)
      .withConfig(StateCacheContract::withCache);

  DynamoDbLocalStateCacheTest(EventStore store) {
    super(store);
  }
}
