package dev.esgen.spring.boot.memo;

import dev.esgen.annotations.Aggregate;
import dev.esgen.annotations.AggregateId;
import dev.esgen.annotations.Indexed;

/** A package-private aggregate, so its repository is package-private too; listed by author. */
@Aggregate(name = "memo", events = MemoEvent.class)
record Memo(@AggregateId String id, @Indexed String author) {

  static Memo write(MemoWritten e) {
    return new Memo(e.id(), e.author());
  }
}
