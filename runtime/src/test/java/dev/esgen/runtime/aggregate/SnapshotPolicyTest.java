package dev.esgen.runtime.aggregate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** What a snapshot policy accepts: its TTL is added to each snapshot's write time, so it is bounded. */
class SnapshotPolicyTest {

  @Test
  void aTtlUpToAHundredYearsIsAcceptedAndOneBeyondIsRefused() {
    SnapshotPolicy longest = new SnapshotPolicy(10, 1, Optional.of(SnapshotPolicy.MAX_TTL));
    assertEquals(Optional.of(Duration.ofDays(36_500)), longest.ttl());
    assertTrue(Instant.now().plus(longest.ttl().orElseThrow()).isAfter(Instant.now()), "an expiry Java can represent");

    IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
        () -> new SnapshotPolicy(10, 1, Optional.of(Duration.ofDays(400_000_000_000L))));
    assertTrue(refused.getMessage().startsWith("snapshot TTL must be at most 36500 days"), refused.getMessage());
    assertThrows(IllegalArgumentException.class, () -> new SnapshotPolicy(10, 1, Optional.of(Duration.ZERO)));
  }
}
