package dev.esgen.bench.e2e;

import dev.esgen.bench.domain.Cart;
import dev.esgen.bench.domain.CartEvent;
import dev.esgen.bench.domain.CartId;
import dev.esgen.bench.measure.Meter;
import dev.esgen.runtime.repository.EventSourcedRepository;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiFunction;
import java.util.function.Function;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * A storage layout the end-to-end benchmark measures: esgen on it, the floor that sends the same
 * requests by hand, and an unmetered repository to prepare streams with. A layout is one more entry in
 * {@link EndToEndBenchmark#LAYOUTS}.
 *
 * @param name as the report shows it
 * @param esgen esgen's side on a metered client
 * @param floor the floor's side on a metered client
 * @param setup a repository for untimed preparation on an unmetered client
 * @param unavailable operations this layout cannot serve yet, by name, with the reason
 */
public record Layout(
    String name,
    BiFunction<DynamoDbClient, Meter, Side> esgen,
    BiFunction<DynamoDbClient, Meter, Side> floor,
    Function<DynamoDbClient, EventSourcedRepository<Cart, CartId, CartEvent>> setup,
    Map<String, String> unavailable) {

  /** Why {@code operation} cannot be measured on this layout yet, if it cannot. */
  public Optional<String> unavailable(Operation operation) {
    return operation.unavailable().or(() -> Optional.ofNullable(unavailable.get(operation.name())));
  }
}
