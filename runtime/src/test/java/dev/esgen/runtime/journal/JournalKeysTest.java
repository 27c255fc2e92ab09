package dev.esgen.runtime.journal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.esgen.runtime.internal.keys.JournalKeys;
import org.junit.jupiter.api.Test;

class JournalKeysTest {

  @Test
  void shardsArePinnedToCrc32OfTheUtf8Id() {
    // Stored keys depend on these values: they must never change between versions or JVMs.
    assertEquals(0, new JournalKeys("account", 4).shard("42"));               // CRC32 841265288
    assertEquals(8, new JournalKeys("account", 16).shard("42"));
    assertEquals(2, new JournalKeys("account", 4).shard("5f0c1d2e-0000-4000-8000-000000000000"));
    assertEquals(5, new JournalKeys("account", 16).shard("\u00fc"));          // two UTF-8 bytes
    assertEquals("account-6", new JournalKeys("account", 16).partitionKey("5f0c1d2e-0000-4000-8000-000000000000"));
  }

  @Test
  void sortKeysPadTheSeqNrSoStringOrderIsSeqOrder() {
    JournalKeys keys = new JournalKeys("bank-account", 4);
    assertEquals("bank-account-42-00000000000000000007", keys.sortKey("42", 7));
    assertEquals("bank-account-42-00000000000000000000", keys.headSortKey("42"));
    assertEquals("bank-account-42-09223372036854775807", keys.sortKey("42", Long.MAX_VALUE));
    assertTrue(keys.sortKey("42", 9).compareTo(keys.sortKey("42", 10)) < 0);
    assertThrows(IllegalArgumentException.class, () -> keys.sortKey("42", -1));
  }

  @Test
  void oneShardPutsEveryStreamInOnePartition() {
    JournalKeys keys = new JournalKeys("a", 1);
    assertEquals("a-0", keys.partitionKey("x"));
    assertEquals("a-0", keys.partitionKey("anything else"));
  }
}
