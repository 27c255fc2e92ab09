package dev.esgen.bench.codec;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.esgen.bench.domain.CartEvent;
import dev.esgen.bench.domain.CartRepository;
import dev.esgen.bench.domain.ItemAdded;
import dev.esgen.bench.domain.LinesAdded;
import dev.esgen.runtime.codec.EsgenJson;
import java.io.IOException;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * The generated event codec against one {@code ObjectMapper} with {@code @JsonTypeInfo} on the sealed
 * interface, encoding and decoding a small and a 2 KB event. Both use esgen's mapper settings; the
 * hand-written way calls the mapper as users do ({@code writeValueAsBytes}, {@code readValue(bytes,
 * Root.class)}).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class CodecBenchmark {

  @Param({"small", "2KB"})
  public String size;

  private CartRepository.EventCodec generated;
  private ObjectMapper handWritten;
  private CartEvent event;
  private HandWrittenCartEvent handWrittenEvent;
  private String typeName;
  private byte[] generatedBody;
  private byte[] handWrittenBody;

  @Setup
  public void setUp() throws IOException {
    generated = new CartRepository.EventCodec(EsgenJson.newObjectMapper());
    handWritten = EsgenJson.newObjectMapper();
    if (size.equals("small")) {
      event = new ItemAdded("SKU-100001", 1, 1_999);
      handWrittenEvent = new HandWrittenCartEvent.ItemAdded("SKU-100001", 1, 1_999);
    } else {
      event = LinesAdded.twoKilobytes();
      handWrittenEvent = HandWrittenCartEvent.LinesAdded.twoKilobytes();
    }
    typeName = generated.typeName(event);
    generatedBody = generated.encode(event);
    handWrittenBody = handWritten.writeValueAsBytes(handWrittenEvent);
  }

  @Benchmark
  public byte[] encodeGenerated() throws IOException {
    return generated.encode(event);
  }

  @Benchmark
  public byte[] encodeHandWritten() throws IOException {
    return handWritten.writeValueAsBytes(handWrittenEvent);
  }

  @Benchmark
  public CartEvent decodeGenerated() throws IOException {
    return generated.decode(typeName, generatedBody);
  }

  @Benchmark
  public HandWrittenCartEvent decodeHandWritten() throws IOException {
    return handWritten.readValue(handWrittenBody, HandWrittenCartEvent.class);
  }

  /** The JSON body sizes, for the report: {generated, hand-written}. */
  public static int[] bodySizes(String size) throws IOException {
    CodecBenchmark b = new CodecBenchmark();
    b.size = size;
    b.setUp();
    return new int[] {b.generatedBody.length, b.handWrittenBody.length};
  }
}
