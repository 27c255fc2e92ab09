package dev.esgen.consumertest;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The files a Markdown page spells out: each fenced code block right after a line
 * {@code <!-- snippet: PATH -->} is the whole content of the file at {@code PATH}. The comment does not
 * show when the page is rendered, so readers see plain code blocks while the build gets a project.
 *
 * <p>Run as a program it writes the files under a directory, emptied first:
 * {@code Snippets docs/getting-started.md target/consumer-src/getting-started}.
 */
public final class Snippets {

  private static final Pattern MARKER = Pattern.compile("<!--\\s*snippet:\\s*(\\S+)\\s*-->");
  private static final String FENCE = "```";

  private Snippets() {}

  /** The snippets of {@code markdown}, by path, in the order they appear. */
  public static Map<String, String> read(Path markdown) {
    try {
      return parse(Files.readAllLines(markdown, StandardCharsets.UTF_8), markdown.toString());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * The snippets in {@code lines}, by path.
   *
   * @throws IllegalArgumentException naming {@code source} and the line of a marker that no code block
   *     follows, of a path given twice or not relative, or of a block that does not end
   */
  public static Map<String, String> parse(List<String> lines, String source) {
    Map<String, String> snippets = new LinkedHashMap<>();
    for (int i = 0; i < lines.size(); i++) {
      Matcher marker = MARKER.matcher(lines.get(i).strip());
      if (!marker.matches()) {
        continue;
      }
      String path = marker.group(1);
      String where = source + ":" + (i + 1) + ": snippet " + path;
      Path relative = Path.of(path);
      if (relative.isAbsolute() || !relative.normalize().equals(relative) || path.startsWith("..")) {
        throw new IllegalArgumentException(where + ": the path must be relative and plain");
      }
      if (i + 1 >= lines.size() || !lines.get(i + 1).startsWith(FENCE)) {
        throw new IllegalArgumentException(where + ": the next line must open a code block (" + FENCE + ")");
      }
      StringBuilder content = new StringBuilder();
      int line = i + 2;
      while (line < lines.size() && !lines.get(line).equals(FENCE)) {
        content.append(lines.get(line)).append('\n');
        line++;
      }
      if (line == lines.size()) {
        throw new IllegalArgumentException(where + ": its code block is not closed");
      }
      if (snippets.putIfAbsent(path, content.toString()) != null) {
        throw new IllegalArgumentException(where + ": an earlier snippet has the same path");
      }
      i = line;
    }
    return snippets;
  }

  /** Writes the snippets of {@code markdown} under {@code directory}, after deleting what it held. */
  public static void write(Path markdown, Path directory) throws IOException {
    Map<String, String> snippets = read(markdown);
    if (snippets.isEmpty()) {
      throw new IllegalArgumentException(markdown + " has no snippets");
    }
    if (Files.exists(directory)) {
      try (Stream<Path> old = Files.walk(directory)) {
        for (Path path : old.sorted(Comparator.reverseOrder()).toList()) {
          Files.delete(path);
        }
      }
    }
    for (Map.Entry<String, String> snippet : snippets.entrySet()) {
      Path file = directory.resolve(snippet.getKey());
      Files.createDirectories(file.getParent());
      Files.writeString(file, snippet.getValue(), StandardCharsets.UTF_8);
    }
  }

  /**
   * Writes the snippets of the page {@code args[0]} under the directory {@code args[1]}.
   *
   * @param args the Markdown page and the directory
   * @throws IOException if a file cannot be read or written
   */
  public static void main(String[] args) throws IOException {
    if (args.length != 2) {
      throw new IllegalArgumentException("usage: Snippets PAGE.md DIRECTORY");
    }
    write(Path.of(args[0]), Path.of(args[1]));
  }
}
