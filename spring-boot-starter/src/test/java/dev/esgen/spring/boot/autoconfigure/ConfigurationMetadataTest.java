package dev.esgen.spring.boot.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The property metadata the starter ships, which IDEs show while completing {@code esgen.*} properties. */
class ConfigurationMetadataTest {

  @Test
  void descriptionsArePlainTextWithoutJavadocTags() throws IOException {
    JsonNode metadata;
    try (InputStream json = getClass().getResourceAsStream("/META-INF/spring-configuration-metadata.json")) {
      assertThat(json).as("the metadata the configuration processor writes").isNotNull();
      metadata = new ObjectMapper().readTree(json);
    }
    List<String> tagged = new ArrayList<>();
    for (JsonNode property : metadata.get("properties")) {
      if (property.path("description").asText().contains("{@")) {
        tagged.add(property.get("name").asText() + ": " + property.get("description").asText());
      }
    }
    assertThat(tagged).isEmpty();
  }
}
