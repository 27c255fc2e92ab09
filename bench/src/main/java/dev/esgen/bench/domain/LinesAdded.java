package dev.esgen.bench.domain;

import dev.esgen.annotations.EventType;
import java.util.List;

/** The large event: {@link #twoKilobytes()} builds one whose JSON body is about 2 KB. */
@EventType("lines-added")
public record LinesAdded(List<Line> lines) implements CartEvent {

  /** One order line. */
  public record Line(String sku, int quantity, long priceCents, String description) {}

  /** Twenty lines of about 100 bytes each. */
  public static LinesAdded twoKilobytes() {
    List<Line> lines = new java.util.ArrayList<>();
    for (int i = 0; i < 20; i++) {
      lines.add(new Line("SKU-" + (100_000 + i), 1 + i % 3, 1_999L + i, "line " + i + " of a benchmark order, padded "
          + "to a realistic length"));
    }
    return new LinesAdded(lines);
  }
}
