package dev.esgen.micrometer.notebook;

import dev.esgen.annotations.Aggregate;
import dev.esgen.annotations.AggregateId;
import dev.esgen.annotations.Unique;
import java.util.List;

/**
 * A notebook holding every page written into it. It snapshots after every event, so that a notebook
 * whose pages outgrow a DynamoDB item shows skipped snapshots.
 */
@Aggregate(name = "notebook", events = NotebookEvent.class, snapshotEvery = 1)
public record Notebook(@AggregateId NotebookId id, @Unique String title, String text) {

  static Notebook open(NotebookOpened e) {
    return new Notebook(e.id(), e.title(), "");
  }

  Notebook apply(PageWritten e) {
    return new Notebook(id, title, text + e.text());
  }

  public List<NotebookEvent> write(String page) {
    return List.of(new PageWritten(page));
  }
}
