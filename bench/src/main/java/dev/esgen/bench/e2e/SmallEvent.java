package dev.esgen.bench.e2e;

import dev.esgen.bench.domain.ItemAdded;

/** The small event appends and commands write, in one place so that both sides write the same bytes. */
final class SmallEvent {

  static final ItemAdded EVENT = new ItemAdded("SKU-100001", 1, 1_999);

  private SmallEvent() {}
}
