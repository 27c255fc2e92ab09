package dev.esgen.bench.compile;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes the sources of a synthetic domain: per aggregate a package with an id record, a sealed event
 * interface, its event records (each with a few fields of different types) and the aggregate record with
 * a creating method and one handler per other event, the shape a user writes.
 */
final class DomainGenerator {

  private DomainGenerator() {}

  static List<Path> write(Path root, int aggregates, int eventsPerAggregate) throws IOException {
    List<Path> files = new ArrayList<>();
    for (int a = 0; a < aggregates; a++) {
      String pkg = "bench.domain" + a;
      Path dir = Files.createDirectories(root.resolve("bench").resolve("domain" + a));
      String agg = "Thing" + a;
      String id = agg + "Id";
      String events = agg + "Event";
      files.add(write(dir, id, "package " + pkg + ";\n\npublic record " + id + "(java.util.UUID value) {}\n"));
      StringBuilder permits = new StringBuilder();
      for (int e = 0; e < eventsPerAggregate; e++) {
        permits.append(e == 0 ? "" : ", ").append(eventName(a, e));
      }
      files.add(write(dir, events, "package " + pkg + ";\n\n@dev.esgen.annotations.DomainEvents\n"
          + "public sealed interface " + events + " permits " + permits + " {}\n"));
      files.add(write(dir, eventName(a, 0), "package " + pkg + ";\n\n"
          + "@dev.esgen.annotations.EventType(\"thing" + a + "-created\")\n"
          + "public record " + eventName(a, 0) + "(" + id + " id, String name, java.time.Instant at) implements "
          + events + " {}\n"));
      StringBuilder handlers = new StringBuilder();
      for (int e = 1; e < eventsPerAggregate; e++) {
        files.add(write(dir, eventName(a, e), "package " + pkg + ";\n\n"
            + "public record " + eventName(a, e) + "(String label, long amount, int count, boolean flag) implements "
            + events + " {}\n"));
        handlers.append("  ").append(agg).append(" apply(").append(eventName(a, e)).append(" e) {\n")
            .append("    return new ").append(agg).append("(id, name, total + e.amount(), version + 1);\n  }\n\n");
      }
      files.add(write(dir, agg, "package " + pkg + ";\n\n"
          + "@dev.esgen.annotations.Aggregate(name = \"thing-" + a + "\", events = " + events + ".class)\n"
          + "public record " + agg + "(@dev.esgen.annotations.AggregateId " + id + " id, String name, long total,"
          + " int version) {\n\n"
          + "  static " + agg + " create(" + eventName(a, 0) + " e) {\n"
          + "    return new " + agg + "(e.id(), e.name(), 0, 1);\n  }\n\n"
          + handlers
          + "}\n"));
    }
    return files;
  }

  private static String eventName(int aggregate, int event) {
    return event == 0 ? "Thing" + aggregate + "Created" : "Thing" + aggregate + "Event" + event;
  }

  private static Path write(Path dir, String type, String source) throws IOException {
    return Files.writeString(dir.resolve(type + ".java"), source);
  }
}
