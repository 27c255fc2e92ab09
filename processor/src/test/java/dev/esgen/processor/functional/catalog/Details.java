package dev.esgen.processor.functional.catalog;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.util.UUID;

/** Every column value of a product, set at once by its events. */
public record Details(
    String sku,
    Integer code,
    String category,
    long priceCents,
    BigDecimal weight,
    boolean active,
    Color color,
    UUID supplier,
    Instant listedAt,
    LocalDate releaseDate,
    Barcode barcode) {}
