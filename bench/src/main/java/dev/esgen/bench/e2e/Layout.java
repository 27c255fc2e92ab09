package dev.esgen.bench.e2e;

import dev.esgen.bench.domain.CartRepository;
import dev.esgen.bench.measure.Meter;
import java.util.function.BiFunction;
import java.util.function.Function;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * A storage layout the end-to-end benchmark measures: esgen on it, the floor that sends the same
 * requests by hand, and an unmetered repository to prepare streams with. A second layout is one more
 * entry in {@link EndToEndBenchmark#LAYOUTS}.
 *
 * @param name as the report shows it
 * @param esgen esgen's side on a metered client
 * @param floor the floor's side on a metered client
 * @param setup a repository for untimed preparation on an unmetered client
 */
public record Layout(
    String name,
    BiFunction<DynamoDbClient, Meter, Side> esgen,
    BiFunction<DynamoDbClient, Meter, Side> floor,
    Function<DynamoDbClient, CartRepository> setup) {}
