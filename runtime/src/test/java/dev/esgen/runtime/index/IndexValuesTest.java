package dev.esgen.runtime.index;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.esgen.annotations.Normalization;
import dev.esgen.runtime.internal.index.IndexChanges;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class IndexValuesTest {

  @Test
  void numbersHaveOneExactPlainForm() {
    assertEquals("42", IndexValues.of(42L));
    assertEquals("-7", IndexValues.of((short) -7));
    assertEquals("0.1", IndexValues.of(0.1));
    assertEquals("0.1", IndexValues.of(0.1f));
    assertEquals("1", IndexValues.of(1.0));
    assertEquals("0", IndexValues.of(-0.0));
    assertEquals("10.5", IndexValues.of(new BigDecimal("10.50")));
    assertEquals("1000", IndexValues.of(new BigDecimal("1E+3")));
    assertEquals("123456789012345678901234567890", IndexValues.of(new BigInteger("123456789012345678901234567890")));
    assertEquals("NaN", IndexValues.of(Double.NaN));
  }

  @Test
  void otherTypesUseTheirCanonicalForms() {
    UUID uuid = UUID.fromString("5F0C6B0E-8D3A-4C55-9B1E-2F4A8F1D2C33");
    assertEquals("5f0c6b0e-8d3a-4c55-9b1e-2f4a8f1d2c33", IndexValues.of(uuid));
    assertEquals("2026-01-02T03:04:05Z", IndexValues.of(Instant.parse("2026-01-02T03:04:05.000Z")));
    assertEquals("2026-01-02", IndexValues.of(LocalDate.of(2026, 1, 2)));
    assertEquals("true", IndexValues.of(true));
    assertEquals("EXACT", IndexValues.of(Normalization.EXACT));
  }

  @Test
  void changesListOnlyWhatChangedAndNormaliseUniqueValues() {
    IndexColumn owner = IndexColumn.indexed("owner");
    IndexColumn email = IndexColumn.unique("email", Normalization.CASE_INSENSITIVE);
    IndexColumns<String[]> columns = new IndexColumns<>() {
      @Override
      public List<IndexColumn> columns() {
        return List.of(owner, email);
      }

      @Override
      public java.util.Map<String, String> values(String[] state) {
        java.util.Map<String, String> values = new java.util.LinkedHashMap<>();
        if (state[0] != null) {
          values.put("owner", state[0]);
        }
        if (state[1] != null) {
          values.put("email", state[1]);
        }
        return values;
      }
    };
    IndexChanges created = IndexChanges.between("acct", columns, Optional.empty(), new String[] {"Ann", "A@x"});
    assertEquals(List.of(new IndexChanges.SlotChange(0, owner, Optional.of("acct#owner#Ann"))), created.slots());
    assertEquals(List.of(new IndexChanges.UniqueChange(email, "A@x", "acct#email#a@x")), created.reservations());
    assertEquals(List.of(), created.releases());

    assertEquals(true, IndexChanges.between("acct", columns, Optional.of(new String[] {"Ann", "A@x"}),
        new String[] {"Ann", "a@X"}).isEmpty(), "a change of case only is no change of a case-insensitive value");

    IndexChanges moved = IndexChanges.between("acct", columns, Optional.of(new String[] {"Ann", "a@x"}),
        new String[] {null, "b@x"});
    assertEquals(List.of(new IndexChanges.SlotChange(0, owner, Optional.empty())), moved.slots());
    assertEquals("acct#email#b@x", moved.reservations().get(0).key());
    assertEquals("acct#email#a@x", moved.releases().get(0).key());

    assertThrows(IllegalArgumentException.class, () -> IndexChanges.between("acct", columns, Optional.empty(),
        new String[] {"x".repeat(3000), null}));
  }
}
