package dev.esgen.testkit.time;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

class MutableClockTest {

  private static final Instant START = Instant.parse("2026-01-01T09:00:00Z");

  @Test
  void standsStillUntilMovedForwardOrSet() {
    MutableClock clock = MutableClock.at(START);

    assertEquals(START, clock.instant());
    assertEquals(START.plusSeconds(90), clock.advance(Duration.ofSeconds(90)));
    assertEquals(START.plusSeconds(90), clock.instant());
    clock.set(START.minusSeconds(3600));
    assertEquals(START.minusSeconds(3600), clock.instant());
    assertEquals(ZoneOffset.UTC, clock.getZone());
  }

  @Test
  void aZonedViewSharesTheInstant() {
    MutableClock clock = MutableClock.at(START);
    MutableClock paris = clock.withZone(ZoneId.of("Europe/Paris"));

    clock.advance(Duration.ofMinutes(5));

    assertEquals(START.plusSeconds(300), paris.instant());
    assertEquals(ZoneId.of("Europe/Paris"), paris.getZone());
  }

  @Test
  void refusesToAdvanceBackwards() {
    MutableClock clock = MutableClock.at(START);

    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> clock.advance(Duration.ofSeconds(-1)));

    assertEquals(START, clock.instant());
    assertEquals("a clock advances by zero or more, not PT-1S; set(instant) moves it back", e.getMessage());
  }
}
