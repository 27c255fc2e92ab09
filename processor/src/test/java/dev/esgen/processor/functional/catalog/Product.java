package dev.esgen.processor.functional.catalog;

import dev.esgen.annotations.Aggregate;
import dev.esgen.annotations.AggregateId;
import dev.esgen.annotations.Indexed;
import dev.esgen.annotations.Normalization;
import dev.esgen.annotations.Unique;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.util.UUID;

/** An aggregate with a column of every supported kind, two of them unique, against DynamoDB Local. */
@Aggregate(name = "product", events = ProductEvent.class, shards = 2)
public record Product(
    @AggregateId UUID id,
    @Unique(normalize = Normalization.CASE_INSENSITIVE) String sku,
    @Unique(column = "product-code") Integer code,
    @Indexed String category,
    @Indexed long priceCents,
    @Indexed BigDecimal weight,
    @Indexed boolean active,
    @Indexed Color color,
    @Indexed UUID supplier,
    @Indexed Instant listedAt,
    @Indexed LocalDate releaseDate,
    @Indexed Barcode barcode,
    int notes) {

  static Product list(ProductEvent.Listed e) {
    return of(e.id(), e.details(), 0);
  }

  Product apply(ProductEvent.Changed e) {
    return of(id, e.details(), notes);
  }

  Product apply(ProductEvent.Noted e) {
    return new Product(id, sku, code, category, priceCents, weight, active, color, supplier, listedAt, releaseDate,
        barcode, notes + 1);
  }

  private static Product of(UUID id, Details d, int notes) {
    return new Product(id, d.sku(), d.code(), d.category(), d.priceCents(), d.weight(), d.active(), d.color(),
        d.supplier(), d.listedAt(), d.releaseDate(), d.barcode(), notes);
  }

  public Details details() {
    return new Details(sku, code, category, priceCents, weight, active, color, supplier, listedAt, releaseDate, barcode);
  }
}
