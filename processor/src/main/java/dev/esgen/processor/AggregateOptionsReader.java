package dev.esgen.processor;

import java.time.Duration;
import java.time.Period;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.AnnotationValue;
import javax.lang.model.element.TypeElement;
import javax.lang.model.util.Elements;

/**
 * Reads and checks the members of an {@code @Aggregate} annotation: the stored aggregate name, unique
 * within one compilation, and the layout, shard and snapshot options.
 */
final class AggregateOptionsReader {

  private static final Pattern NAME = Pattern.compile("[a-z0-9]+(-[a-z0-9]+)*");

  private final Elements elements;
  private final ErrorReporter errors;
  private final Map<String, String> aggregateNames;

  /**
   * The longest aggregate name that leaves a UUID's 36 characters room in the journal's event sort key,
   * {@code {name}-{id}-{20-digit seq_nr}}, which DynamoDB limits to 1,024 bytes (names are ASCII). The
   * tip's keys leave more, but a definition can be moved to the journal with {@code withLayout}.
   */
  private static final int MAX_NAME_LENGTH = 1024 - 22 - 36;

  /** The longest snapshot TTL, as the runtime's {@code SnapshotPolicy} allows. */
  private static final Duration MAX_SNAPSHOT_TTL = Duration.ofDays(36_500);

  /**
   * @param aggregateNames stored aggregate name to the qualified name of the aggregate that claimed it,
   *     shared by all aggregates of one compilation
   */
  AggregateOptionsReader(Elements elements, ErrorReporter errors, Map<String, String> aggregateNames) {
    this.elements = elements;
    this.errors = errors;
    this.aggregateNames = aggregateNames;
  }

  Optional<String> checkName(TypeElement type, AnnotationMirror aggregate) {
    AnnotationValue value = Annotations.value(elements, aggregate, "name");
    String name = (String) value.getValue();
    if (!NAME.matcher(name).matches()) {
      errors.error(type, aggregate, value, Messages.invalidName(name));
      return Optional.empty();
    }
    if (name.length() > MAX_NAME_LENGTH) {
      errors.error(type, aggregate, value, Messages.nameTooLong(name.length(), MAX_NAME_LENGTH));
      return Optional.empty();
    }
    String qualifiedName = type.getQualifiedName().toString();
    String owner = aggregateNames.putIfAbsent(name, qualifiedName);
    if (owner != null && !owner.equals(qualifiedName)) {
      // Both are named: in an incremental build either may have been read from its class file, where an
      // error has no source position to point at.
      errors.error(type, aggregate, value, Messages.duplicateAggregateName(name, qualifiedName, owner));
    }
    return Optional.of(name);
  }

  AggregateOptions checkOptions(TypeElement type, AnnotationMirror aggregate) {
    AnnotationValue shards = Annotations.value(elements, aggregate, "shards");
    if ((Integer) shards.getValue() < 1) {
      errors.error(type, aggregate, shards, Messages.invalidShards((Integer) shards.getValue()));
    }
    AnnotationValue every = Annotations.value(elements, aggregate, "snapshotEvery");
    if ((Integer) every.getValue() < 1) {
      errors.error(type, aggregate, every, Messages.invalidSnapshotEvery((Integer) every.getValue()));
    }
    AnnotationValue keep = Annotations.value(elements, aggregate, "snapshotsToKeep");
    if ((Integer) keep.getValue() < 0) {
      errors.error(type, aggregate, keep, Messages.invalidSnapshotsToKeep((Integer) keep.getValue()));
    }
    AnnotationValue ttlValue = Annotations.value(elements, aggregate, "snapshotTtl");
    String ttl = (String) ttlValue.getValue();
    if (!ttl.isEmpty()) {
      try {
        Duration duration = Duration.parse(ttl);
        if (duration.isNegative() || duration.isZero()) {
          errors.error(type, aggregate, ttlValue, Messages.invalidSnapshotTtl(ttl, "is not positive"));
        } else if (duration.compareTo(MAX_SNAPSHOT_TTL) > 0) {
          // Each snapshot's expiry is its write time plus the TTL, which must be a time Java can represent.
          errors.error(type, aggregate, ttlValue, Messages.invalidSnapshotTtl(ttl,
              String.format(Locale.ROOT, "is longer than %,d days (100 years)", MAX_SNAPSHOT_TTL.toDays())));
        }
      } catch (DateTimeParseException e) {
        errors.error(type, aggregate, ttlValue, Messages.invalidSnapshotTtl(ttl, inCalendarUnits(ttl)
            ? "counts years, months or weeks, which a duration cannot hold" // ISO-8601, but a Period
            : "is not an ISO-8601 duration"));
      }
    }
    return new AggregateOptions(
        (Integer) shards.getValue(),
        (Integer) every.getValue(),
        (Integer) keep.getValue(),
        ttl.isEmpty() ? Optional.empty() : Optional.of(ttl),
        checkTipOptions(type, aggregate),
        readAsync(aggregate));
  }

  /** Whether {@code async = true}: either layout has an asynchronous twin. */
  private boolean readAsync(AnnotationMirror aggregate) {
    return (Boolean) Annotations.value(elements, aggregate, "async").getValue();
  }

  /** The tip options when {@code layout = TIP}; options of the other layout are errors where they are written. */
  private Optional<AggregateOptions.TipOptions> checkTipOptions(TypeElement type, AnnotationMirror aggregate) {
    boolean tip = Annotations.value(elements, aggregate, "layout").getValue().toString().equals("TIP");
    List<String> otherLayoutsOptions = tip
        ? List.of("snapshotEvery", "snapshotsToKeep", "snapshotTtl")
        : List.of("tipMaxBytes", "tipMaxEvents", "tipSnapshot");
    for (String option : otherLayoutsOptions) {
      AnnotationValue written = Annotations.explicitValue(aggregate, option);
      if (written != null) {
        errors.error(type, aggregate, written,
            tip ? Messages.journalOptionOnTip(option) : Messages.tipOptionOnJournal(option));
      }
    }
    AnnotationValue maxBytes = Annotations.value(elements, aggregate, "tipMaxBytes");
    int bytes = (Integer) maxBytes.getValue();
    if (bytes < 1 || bytes > 409_600) {
      errors.error(type, aggregate, maxBytes, Messages.invalidTipMaxBytes(bytes));
    }
    AnnotationValue maxEvents = Annotations.value(elements, aggregate, "tipMaxEvents");
    if ((Integer) maxEvents.getValue() < 0) {
      errors.error(type, aggregate, maxEvents, Messages.invalidTipMaxEvents((Integer) maxEvents.getValue()));
    }
    if (!tip) {
      return Optional.empty();
    }
    return Optional.of(new AggregateOptions.TipOptions(
        bytes, (Integer) maxEvents.getValue(), (Boolean) Annotations.value(elements, aggregate, "tipSnapshot").getValue()));
  }

  /** Whether {@code ttl} is an ISO-8601 period of years, months or weeks ({@code P1Y}, {@code P6M}, {@code P2W}). */
  private static boolean inCalendarUnits(String ttl) {
    try {
      Period.parse(ttl);
      return true;
    } catch (DateTimeParseException e) {
      return false;
    }
  }
}
