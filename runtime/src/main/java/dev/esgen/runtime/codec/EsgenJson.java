package dev.esgen.runtime.codec;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.datatype.jdk8.Jdk8Module;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;

/**
 * The Jackson configuration esgen's codecs use unless the store is given another mapper.
 *
 * <p>Times are written as ISO-8601 strings (a {@code ZonedDateTime} with its offset only, not its region;
 * a {@code Duration}, as Jackson does by default, as seconds in a decimal number), {@code Optional} and
 * its primitive variants as their value
 * or {@code null}, and unknown properties are ignored when reading so that an event or snapshot written
 * by a newer version of a class (with an added field) still reads. The esgen processor checks at compile
 * time that events and aggregates have shapes this mapper can write and read back; a mapper of your own
 * should register at least the same modules.
 *
 * <pre>{@code
 * ObjectMapper mapper = EsgenJson.newObjectMapper();
 * EventStore store = DynamoDbEventStore.create(client, StoreConfig.defaults().withObjectMapper(mapper));
 * }</pre>
 */
public final class EsgenJson {

  private EsgenJson() {}

  /** A new mapper with esgen's defaults; callers may register further modules on it. */
  public static ObjectMapper newObjectMapper() {
    return JsonMapper.builder()
        .addModule(new JavaTimeModule())
        .addModule(new Jdk8Module())
        .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
        .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
        .disable(DeserializationFeature.ADJUST_DATES_TO_CONTEXT_TIME_ZONE)
        .build();
  }
}
