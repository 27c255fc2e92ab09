package dev.esgen.runtime.aggregate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.esgen.runtime.codec.EsgenJson;
import dev.esgen.runtime.counter.Counter;
import dev.esgen.runtime.counter.CounterEvent;
import dev.esgen.runtime.counter.CounterId;
import dev.esgen.runtime.counter.CounterRepository;
import dev.esgen.runtime.error.InvalidIdException;
import org.junit.jupiter.api.Test;

/**
 * Keys made for one layout check ids against its limit; a definition moved to another layout with
 * {@code withLayout} must check them against that one too, or an id its keys cannot hold reaches DynamoDB,
 * which refuses the whole write.
 */
class MovedLayoutIdTest {

  private static final String NAME = "moved-counter";

  private final AggregateDefinition<Counter, CounterId, CounterEvent> onTip =
      CounterRepository.builder(NAME, EsgenJson.newObjectMapper(), SnapshotPolicy.every(100), LayoutKind.TIP).build();

  @Test
  void aTipDefinitionMovedToTheJournalRefusesIdsOverTheJournalsLimit() {
    int journal = AggregateIds.maxBytes(NAME, LayoutKind.JOURNAL);
    assertTrue(journal < AggregateIds.maxBytes(NAME, LayoutKind.TIP), "the journal's keys hold less");
    CounterId fitsTheTipOnly = new CounterId("x".repeat(journal + 1));
    assertEquals(fitsTheTipOnly.value(), onTip.keys().idString(fitsTheTipOnly));

    AggregateDefinition<Counter, CounterId, CounterEvent> onJournal =
        onTip.withLayout(LayoutKind.JOURNAL, TipPolicy.defaults());

    InvalidIdException e = assertThrows(InvalidIdException.class, () -> onJournal.keys().idString(fitsTheTipOnly));
    assertEquals(journal, e.limitBytes());
    CounterId fits = new CounterId("x".repeat(journal));
    assertEquals(fits.value(), onJournal.keys().idString(fits));
    assertEquals(fits, onJournal.keys().parseId(fits.value()));
  }

  @Test
  void movingBackChecksAgainstTheLayoutItMovesTo() {
    AggregateDefinition<Counter, CounterId, CounterEvent> back = onTip
        .withLayout(LayoutKind.JOURNAL, TipPolicy.defaults())
        .withLayout(LayoutKind.TIP, TipPolicy.defaults());
    CounterId fitsTheTipOnly = new CounterId("x".repeat(AggregateIds.maxBytes(NAME, LayoutKind.JOURNAL) + 1));

    assertEquals(fitsTheTipOnly.value(), back.keys().idString(fitsTheTipOnly));
  }
}
