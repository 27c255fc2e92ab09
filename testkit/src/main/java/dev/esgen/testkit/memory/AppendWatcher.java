package dev.esgen.testkit.memory;

import dev.esgen.testkit.memory.StoredData.StreamType;

/**
 * Hears of each append the in-memory store stores, as a DynamoDB stream record tells of a written item.
 * Called while the store's data is locked, in the order the appends were stored: it must only take note
 * and return.
 */
interface AppendWatcher {

  /** Events were appended to the stream {@code aid} of {@code type}. */
  void appended(StreamType type, String aid);
}
