package dev.esgen.consumertest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SnippetsTest {

  @Test
  void aMarkedBlockIsAFileAndAnUnmarkedOneIsNot() {
    List<String> page = List.of(
        "# Title",
        "```java",
        "class Ignored {}",
        "```",
        "<!-- snippet: src/main/java/A.java -->",
        "```java",
        "class A {",
        "}",
        "```",
        "  <!--snippet:pom.xml-->",
        "```",
        "<project/>",
        "```");
    assertEquals(
        Map.of("src/main/java/A.java", "class A {\n}\n", "pom.xml", "<project/>\n"), Snippets.parse(page, "page.md"));
  }

  @Test
  void aMarkerNeedsACodeBlockRightAfterIt() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> Snippets.parse(List.of("<!-- snippet: A.java -->", "", "```java", "```"), "page.md"));
    assertEquals("page.md:1: snippet A.java: the next line must open a code block (```)", e.getMessage());
  }

  @Test
  void aPathIsGivenOnce() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> Snippets.parse(List.of("<!-- snippet: A.java -->", "```", "```", "<!-- snippet: A.java -->", "```",
            "```"), "page.md"));
    assertEquals("page.md:4: snippet A.java: an earlier snippet has the same path", e.getMessage());
  }

  @Test
  void aPathStaysInsideTheProject() {
    assertThrows(IllegalArgumentException.class,
        () -> Snippets.parse(List.of("<!-- snippet: ../A.java -->", "```", "```"), "page.md"));
    assertThrows(IllegalArgumentException.class,
        () -> Snippets.parse(List.of("<!-- snippet: /A.java -->", "```", "```"), "page.md"));
  }

  @Test
  void aBlockMustEnd() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> Snippets.parse(List.of("<!-- snippet: A.java -->", "```java", "class A {}"), "page.md"));
    assertEquals("page.md:1: snippet A.java: its code block is not closed", e.getMessage());
  }
}
