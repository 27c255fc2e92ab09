package dev.esgen.runtime.index;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.esgen.annotations.Normalization;
import dev.esgen.runtime.internal.index.IndexChanges;
import dev.esgen.runtime.internal.index.UniqueReservations;
import dev.esgen.runtime.internal.keys.IndexKeys;
import org.junit.jupiter.api.Test;

class UniqueReservationsTest {

  @Test
  void aReservationIsSizedInUtf8BytesAsDynamoDbCountsIt() {
    IndexColumn email = IndexColumn.unique("email", Normalization.EXACT);
    // "é", "ô" and "ü" take two bytes each in UTF-8 and "€" three: 5 more bytes than characters
    String value = "jérôme€ü";
    String key = IndexKeys.valueKey("user", "email", value);
    String aid = "ü-1";                          // 1 more

    long size = UniqueReservations.itemSize(new IndexChanges.UniqueChange(email, value, key), aid);

    long expected = "pkey".length() + key.length() + 5 + "skey".length() + IndexKeys.UNIQUE_SORT_KEY.length()
        + "aid".length() + aid.length() + 1;
    assertEquals(expected, size);
  }
}
