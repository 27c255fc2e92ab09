package dev.esgen.bench.codec;

import dev.esgen.bench.domain.Cart;
import dev.esgen.bench.domain.CartEvent;
import dev.esgen.bench.domain.CartId;
import dev.esgen.bench.domain.CartOpened;
import dev.esgen.bench.domain.CartRepository;
import dev.esgen.bench.domain.ItemAdded;
import dev.esgen.runtime.aggregate.AggregateDefinition;
import dev.esgen.runtime.codec.EsgenJson;
import java.io.IOException;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Folding 10,000 stored events into a cart: decode each body with the generated codec, dispatch it to
 * its handler with the generated replay. What a load does after the bytes arrive, without DynamoDB.
 * Reported per event, so the score is events per second.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class ReplayBenchmark {

  public static final int EVENTS = 10_000;

  private AggregateDefinition<Cart, CartId, CartEvent> definition;
  private Cart initial;
  private String[] types;
  private byte[][] bodies;

  @Setup
  public void setUp() throws IOException {
    definition = CartRepository.definition(EsgenJson.newObjectMapper());
    CartId id = CartId.random();
    initial = definition.replay().create(CartOpened.of(id, "benchmark-owner"));
    types = new String[EVENTS];
    bodies = new byte[EVENTS][];
    for (int i = 0; i < EVENTS; i++) {
      CartEvent event = new ItemAdded("SKU-" + (100_000 + i % 50), 1 + i % 3, 1_999);
      types[i] = definition.eventCodec().typeName(event);
      bodies[i] = definition.eventCodec().encode(event);
    }
  }

  @Benchmark
  @OperationsPerInvocation(EVENTS)
  public Cart replay() throws IOException {
    Cart state = initial;
    for (int i = 0; i < EVENTS; i++) {
      state = definition.replay().apply(state, definition.eventCodec().decode(types[i], bodies[i]));
    }
    return state;
  }
}
