package dev.esgen.runtime.counter;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.esgen.runtime.codec.EventCodec;
import dev.esgen.runtime.codec.SnapshotCodec;
import java.io.IOException;

/** Hand-written stand-ins for what the processor generates: stored type names, Jackson bodies. */
final class CounterCodecs {

  private CounterCodecs() {}

  static final class Events implements EventCodec<CounterEvent> {
    private final ObjectMapper mapper;

    Events(ObjectMapper mapper) {
      this.mapper = mapper;
    }

    @Override
    public String typeName(CounterEvent event) {
      if (event instanceof CounterCreated) {
        return "counter-created";
      } else if (event instanceof Incremented) {
        return "incremented";
      } else if (event instanceof Noted) {
        return "noted";
      }
      throw new IllegalArgumentException("not a counter event: " + event);
    }

    @Override
    public byte[] encode(CounterEvent event) throws IOException {
      return mapper.writeValueAsBytes(event);
    }

    @Override
    public CounterEvent decode(String typeName, byte[] body) throws IOException {
      switch (typeName) {
        case "counter-created":
          return mapper.readValue(body, CounterCreated.class);
        case "incremented":
          return mapper.readValue(body, Incremented.class);
        case "noted":
          return mapper.readValue(body, Noted.class);
        default:
          throw new IllegalArgumentException("unknown counter event type '" + typeName + "'");
      }
    }
  }

  static final class Snapshots implements SnapshotCodec<Counter> {
    private final ObjectMapper mapper;

    Snapshots(ObjectMapper mapper) {
      this.mapper = mapper;
    }

    @Override
    public byte[] encode(Counter state) throws IOException {
      return mapper.writeValueAsBytes(state);
    }

    @Override
    public Counter decode(byte[] body) throws IOException {
      return mapper.readValue(body, Counter.class);
    }
  }
}
