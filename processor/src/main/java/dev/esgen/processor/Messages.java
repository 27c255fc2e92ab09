package dev.esgen.processor;

import java.util.ArrayList;
import java.util.List;

/**
 * Every diagnostic esgen reports, in one place.
 *
 * <p>Each message starts with a short tag such as {@code [esgen:no-handler]} that users can search for,
 * names the element at fault in the user's own terms, and says what to change.
 */
final class Messages {

  private static final String NAME_PATTERN = "[a-z0-9]+(-[a-z0-9]+)*";

  private Messages() {}

  // ---- the aggregate type itself

  public static String aggregateKind(String type, String simpleName, String kind) {
    return "[esgen:aggregate-kind] @Aggregate " + type + " is " + kind
        + ": an aggregate must be a record or a final class; declare it as \"public record " + simpleName + "(...)\"";
  }

  public static String aggregateAbstract(String type) {
    return "[esgen:aggregate-abstract] @Aggregate " + type
        + " is abstract: esgen builds it from its events, so remove \"abstract\" and declare it final";
  }

  public static String aggregateNotFinal(String type) {
    return "[esgen:aggregate-not-final] @Aggregate " + type
        + " is not final: declare it \"final\" (or make it a record) so replay rebuilds exactly this type";
  }

  public static String aggregateInner(String type) {
    return "[esgen:aggregate-inner] @Aggregate " + type
        + " is an inner class: declare it \"static\" (or move it to its own file) so generated code can construct it";
  }

  public static String aggregatePrivate(String type, String culprit) {
    String problem = culprit.equals(type) ? " is private" : " is declared in private class " + culprit;
    return "[esgen:aggregate-private] @Aggregate " + type + problem
        + ": generated code in the same package must see it; make " + (culprit.equals(type) ? "it" : culprit)
        + " package-private or public";
  }

  public static String aggregateGeneric(String type) {
    return "[esgen:aggregate-generic] @Aggregate " + type
        + " has type parameters: an aggregate is one concrete stored type; remove them";
  }

  public static String aggregateNotDeserializable(String type) {
    return "[esgen:aggregate-not-deserializable] @Aggregate " + type
        + " cannot be read back from a snapshot: add a non-private no-argument constructor, or annotate a"
        + " constructor with @JsonCreator (or make it a record)";
  }

  // ---- @Aggregate options

  public static String nameTooLong(int length, int max) {
    return "[esgen:name-too-long] the aggregate name has " + length + " characters, at most " + max + " are allowed:"
        + " every key holds it, and a longer one would leave too little room for the ids in the journal's"
        + " 1,024-byte sort keys (a UUID needs 36)";
  }

  public static String invalidName(String name) {
    return "[esgen:invalid-name] aggregate name \"" + name + "\" must match " + NAME_PATTERN
        + " (lower-case letters and digits, words separated by single '-'), for example \"bank-account\"";
  }

  public static String duplicateAggregateName(String name, String type, String otherType) {
    return "[esgen:duplicate-aggregate-name] aggregate name \"" + name + "\" of " + type + " is already used by "
        + otherType + ": every aggregate type needs its own name, because the name prefixes all of its keys";
  }

  public static String invalidShards(int shards) {
    return "[esgen:invalid-shards] shards = " + shards + " must be at least 1";
  }

  public static String invalidSnapshotEvery(int every) {
    return "[esgen:invalid-snapshot-every] snapshotEvery = " + every + " must be at least 1 event";
  }

  public static String invalidSnapshotsToKeep(int keep) {
    return "[esgen:invalid-snapshots-to-keep] snapshotsToKeep = " + keep + " must be 0 or more";
  }

  public static String invalidTipMaxBytes(int bytes) {
    return "[esgen:invalid-tip-max-bytes] tipMaxBytes = " + bytes
        + " must be between 1 and 409600 (DynamoDB's 400 KB item limit), for example 32768";
  }

  public static String invalidTipMaxEvents(int events) {
    return "[esgen:invalid-tip-max-events] tipMaxEvents = " + events + " must be 0 (no limit) or more";
  }

  public static String tipOptionOnJournal(String option) {
    return "[esgen:tip-option-on-journal] " + option + " applies to the tip layout only: add"
        + " \"layout = Layout.TIP\" or remove " + option;
  }

  public static String journalOptionOnTip(String option) {
    return "[esgen:journal-option-on-tip] " + option + " applies to the journal layout only (the tip layout"
        + " rewrites its snapshot on every append, see tipSnapshot): remove " + option;
  }

  public static String invalidSnapshotTtl(String ttl, String problem) {
    return "[esgen:invalid-snapshot-ttl] snapshotTtl = \"" + ttl + "\" " + problem
        + ": use a positive ISO-8601 duration such as \"P30D\" or \"PT12H\", or leave it empty to delete old snapshots";
  }

  // ---- the events

  public static String eventsNotDomainEvents(String aggregate, String events) {
    return "[esgen:events-not-domain-events] " + aggregate + "'s events type " + events
        + " is not annotated @DomainEvents: annotate " + events + " with @DomainEvents";
  }

  public static String eventsNotAType(String aggregate, String written) {
    return "[esgen:events-not-a-type] " + aggregate + "'s events = " + written + " is not a type that can hold"
        + " events: events must be a sealed interface or class annotated @DomainEvents";
  }

  public static String eventsNotSealed(String aggregate, String events, boolean isInterface) {
    return "[esgen:events-not-sealed] " + aggregate + "'s events type " + events
        + " is not sealed, so its events cannot be enumerated: declare \"sealed "
        + (isInterface ? "interface " : "abstract class ") + events + " permits ...\" listing every event";
  }

  public static String eventsCannotBeRoot(String aggregate, String events, String what, String example) {
    return "[esgen:events-not-a-type] " + aggregate + "'s events = " + events + ".class names " + what
        + ", which cannot be the sealed root of " + aggregate + "'s events: point events at the interface your"
        + " events implement, declared as \"@DomainEvents sealed interface " + example + " permits ...\", with"
        + " events = " + example + ".class";
  }

  public static String sealedLevelNotAbstract(String level) {
    return "[esgen:sealed-level-not-abstract] sealed class " + level + " is not abstract, so \"new " + level
        + "(...)\" compiles as an event although only its permitted subtypes can be stored: declare it"
        + " \"abstract sealed class " + level + "\"";
  }

  public static String eventNotEnumerable(String event, String permittedBy) {
    return "[esgen:event-not-enumerable] " + event + " (permitted by " + permittedBy
        + ") is neither sealed nor final, so esgen cannot know all events: make it a record, a final class,"
        + " or a sealed type that permits its subtypes";
  }

  public static String permittedNotSubtype(String event, String sealed) {
    return "[esgen:permitted-not-subtype] " + sealed + " permits " + event + ", but " + event + " does not extend"
        + " or implement it: their class files come from different compilations; compile " + sealed
        + " and its events together";
  }

  public static String sealedLevelPrivate(String level, String culprit, String aggregatePackage) {
    String what = culprit.equals(level) ? "it is private" : culprit + ", which encloses it, is private";
    return "[esgen:event-not-accessible] sealed level " + level + " cannot be named by the code generated in package "
        + aggregatePackage + " for the handlers that take it: " + what + "; make it package-private or public";
  }

  public static String eventGeneric(String event) {
    return "[esgen:event-generic] " + event + " has type parameters: a stored event is read back without them,"
        + " so Jackson cannot know what they were; remove them and use concrete types";
  }

  public static String sealedLevelGeneric(String level) {
    return "[esgen:event-generic] sealed level " + level + " has type parameters, which esgen does not support on"
        + " event types (its generated dispatch names each type without them): remove them and give the events"
        + " under it concrete types";
  }

  public static String eventEnum(String event) {
    return "[esgen:event-enum] " + event + " is an enum, and enums cannot be events (an event carries its own"
        + " data, stored as JSON properties): make each constant a record, such as \"record Closed() implements ...\"";
  }

  public static String eventNotAccessible(String event, String culprit, String aggregatePackage) {
    String fix = culprit.equals(event) ? "make it" : "make " + culprit + ", which encloses it,";
    return "[esgen:event-not-accessible] event " + event + " cannot be seen from package " + aggregatePackage
        + ", where the generated code lives: " + fix + " public (or package-private in that package) and not private";
  }

  public static String eventInner(String event, String enclosing) {
    return "[esgen:event-inner] event " + event + " is an inner class, which Jackson cannot build without an"
        + " instance of " + enclosing + " to hold it: declare it static (or make it a record)";
  }

  public static String eventNotDeserializable(String event) {
    return "[esgen:event-not-deserializable] event " + event
        + " cannot be read back from storage: add a non-private no-argument constructor, or annotate a"
        + " constructor with @JsonCreator (or make it a record)";
  }

  public static String eventWithoutProperties(String event, String simpleName, String parent) {
    return "[esgen:event-without-properties] event " + event + " has no property Jackson can see, and Jackson"
        + " refuses to write such a class: make it a record (\"record " + simpleName + "() implements " + parent
        + " {}\") or give it a public getter";
  }

  public static String fieldInvisibleToJackson(String type, String field, String fieldType, String getter, String what) {
    return "[esgen:field-invisible-to-jackson] Jackson cannot see field " + field + " of " + type
        + " (it detects public fields, public getX()/isX() getters and @JsonProperty, not x() accessors), so"
        + " every " + what + " would silently lose it: "
        // no getter gives Jackson a property named like URL: it lower-cases a getter's leading capitals
        + (getter == null ? "" : "add \"public " + fieldType + " " + getter + "()\", ")
        + "annotate the field @JsonProperty, make it public, or mark it transient if it is not state";
  }

  public static String creatorParameterNames(String type, List<String> parameters) {
    return "[esgen:creator-parameter-names] Jackson cannot tell which properties the parameters "
        + String.join(", ", parameters) + " of this @JsonCreator of " + type + " receive (parameter names are not"
        + " kept at run time): annotate each with @JsonProperty(\"name\")";
  }

  /** @param fix what to do about {@code culprit}, from {@link #jsonAbstractTypeFix} */
  public static String jsonAbstractType(String where, String type, String via, String culprit, String kind, String fix) {
    return "[esgen:json-abstract-type] " + where + " has type " + type + via + ", which Jackson writes but cannot"
        + " read back: " + culprit + " is " + kind + ", and the stored JSON does not say which class to build; " + fix;
  }

  /**
   * @param compiledHere whether {@code culprit} is compiled with the aggregate, so that it can be annotated
   * @param isEvent whether {@code culprit} is (under) an events root, whose type already goes beside the JSON
   */
  public static String jsonAbstractTypeFix(String culprit, boolean compiledHere, boolean isEvent) {
    if (isEvent) {
      return "keep what is needed of these events in records of their own (@JsonTypeInfo on " + culprit
          + " would also change how every event is stored)";
    }
    return compiledHere
        ? "annotate " + culprit + " with @JsonTypeInfo(use = JsonTypeInfo.Id.NAME) and @JsonSubTypes naming its"
            + " implementations, or use a record or final class"
        : "hold the data in a record or final class instead";
  }

  public static String jsonInnerClass(String where, String type, String via, String culprit, String enclosing) {
    return "[esgen:json-inner-class] " + where + " has type " + type + via + ", which Jackson cannot read back: "
        + culprit + " is an inner class, which Jackson builds only as a field of a " + enclosing + " it has built"
        + " first; declare it static (or make it a record)";
  }

  public static String jsonEmptyType(String where, String type, String via, String culprit) {
    return "[esgen:json-empty-type] " + where + " has type " + type + via + ", which Jackson cannot write: "
        + culprit + " has no property Jackson sees (a public field, a public getX()/isX() or @JsonProperty) and no"
        + " @JsonValue; make it a record, or give it a public getter for each field";
  }

  public static String jsonNoCreator(String where, String type, String via, String culprit) {
    return "[esgen:json-no-creator] " + where + " has type " + type + via + ", which Jackson cannot read back: "
        + culprit + " has no constructor Jackson can call (one without parameters, or one annotated @JsonCreator"
        + " whose parameters carry @JsonProperty); make it a record, or add such a constructor";
  }

  public static String jsonMapKey(String where, String type, String via, String culprit, String problem) {
    return "[esgen:json-map-key] " + where + " has type " + type + via + ", whose keys Jackson writes with"
        + " toString() and reads back through a constructor or static valueOf taking one String, but " + problem
        + ": use String, a number, an enum, UUID or a java.time type as the key, or give " + culprit
        + " both (a @JsonValue method returning String and a constructor taking it)";
  }

  public static String blankEventType(String event, String defaultName) {
    return "[esgen:blank-event-type] @EventType on " + event
        + " is blank: give it a stable stored name such as \"account-opened\", or remove it to use its simple"
        + " class name \"" + defaultName + "\"";
  }

  public static String eventTypeOnSealed(String type, List<String> events) {
    return "[esgen:event-type-on-sealed] @EventType on " + type + " is ignored: it names concrete events, and "
        + type + " is a sealed parent; put it on " + (events.isEmpty() ? "the events it permits" : String.join(" and ", events));
  }

  public static String duplicateEventType(String storedName, String event, String other) {
    return "[esgen:duplicate-event-type] event " + event + " is stored as \"" + storedName + "\", like " + other
        + ": give one of them a distinct @EventType(\"...\")";
  }

  // ---- handlers

  public static String noHandler(String event, String aggregate) {
    return "[esgen:no-handler] event " + event + " has no handler: add \"" + aggregate + " apply(" + event
        + " e)\" to " + aggregate;
  }

  public static String inheritedHandler(String event, String aggregate, String method, String superclass) {
    return "[esgen:no-handler] event " + event + " has no handler in " + aggregate + ": " + method + " is inherited"
        + " from " + superclass + ", and esgen calls only the handlers " + aggregate + " declares itself; declare \""
        + aggregate + " apply(" + event + " e)\" in " + aggregate + " (it may call the inherited one)";
  }

  public static String duplicateHandler(String handler, List<String> events, String other) {
    return "[esgen:duplicate-handler] " + handler + " handles " + String.join(", ", events) + ", which "
        + other + " already handles: keep exactly one apply handler per event";
  }

  /** @param event the event the handler takes, or null when it takes none */
  public static String handlerShape(String aggregate, String events, String problem, String event) {
    return "[esgen:handler-shape] this apply handler " + problem + ": handlers look like \"" + aggregate
        + " apply(" + (event == null ? "SomeEvent" : event) + " e)\", an instance method returning " + aggregate
        + " that takes one event of " + events;
  }

  public static String handlerPrivate(String replay) {
    return "[esgen:handler-private] apply handlers are called by the generated " + replay
        + " in the same package: make this one package-private (or more visible), not private";
  }

  public static String eventVarargs(String method, String event, boolean creator) {
    return "[esgen:event-varargs] " + method + " takes its event as varargs (" + event + "...), but the generated"
        + " replay " + (creator ? "creates the aggregate from" : "applies") + " one event at a time: declare the"
        + " parameter as \"" + event + " e\"";
  }

  public static String handlerThrows(String method, String exception) {
    return "[esgen:handler-throws] " + method + " declares checked exception " + exception
        + ", which the generated replay cannot pass on: handlers must not throw checked exceptions (throw an"
        + " unchecked one, or reject the command before its event is appended)";
  }

  public static String noCreator(String aggregate, String firstEvent) {
    return "[esgen:no-creator] " + aggregate + " has no creating method: add \"static " + aggregate
        + " create(" + firstEvent + " e)\", which builds the aggregate from the first event of its stream";
  }

  public static String creatorShape(String method, String aggregate, String problem, String example) {
    return "[esgen:creator-shape] " + method + " would be " + aggregate + "'s creating method, but it " + problem
        + ": the creating method takes the first event of a stream and nothing else and returns " + aggregate
        + ", as in \"" + example + "\" (take anything else it needs from the event)";
  }

  public static String handlerName(String method, String event) {
    return "[esgen:handler-name] " + method + " has the shape of a handler of " + event + ", but esgen calls only"
        + " handlers named apply: rename it to apply";
  }

  public static String creatorNotStatic(String method, String aggregate) {
    return "[esgen:creator-not-static] " + method + " would build " + aggregate + " from the first event of its"
        + " stream, but it is an instance method, and there is no " + aggregate + " to call it on before that event:"
        + " make it static";
  }

  public static String duplicateCreator(String method, String other) {
    return "[esgen:duplicate-creator] " + method + " is a second creating method besides " + other
        + ": a stream starts one way; keep one static method that returns the aggregate from an event"
        + " (a sealed parent of several events can be its parameter)";
  }

  public static String creatorPrivate(String replay) {
    return "[esgen:creator-private] the creating method is called by the generated " + replay
        + " in the same package: make it package-private (or more visible), not private";
  }

  // ---- id and index columns

  public static String noId(String aggregate) {
    return "[esgen:no-id] " + aggregate + " has no @AggregateId: annotate the component that identifies it,"
        + " for example \"@AggregateId AccountId id\"";
  }

  public static String duplicateId(String component, String other) {
    return "[esgen:duplicate-id] " + component + " is a second @AggregateId besides " + other
        + ": an aggregate has exactly one id; remove one of the annotations";
  }

  public static String idType(String component, String type, boolean genericRecord) {
    return "[esgen:id-type] @AggregateId " + component + " has type " + type
        + (genericRecord ? ", a generic record, which" : ", which")
        + " esgen cannot turn into a key: use String, java.util.UUID, or a record wrapping exactly one"
        + " of them" + (genericRecord ? " and declaring no type parameters" : "")
        + ", such as \"record AccountId(UUID value)\"";
  }

  /** @param what "id" or "column", what esgen supports no generic type for */
  public static String rawType(String annotation, String component, String type, List<String> parameters,
      String what) {
    return "[esgen:raw-type] @" + annotation + " " + component + " has the raw type " + type + ", which declares"
        + " type parameter" + (parameters.size() == 1 ? " " : "s ") + String.join(", ", parameters)
        + ": generated code naming it without type arguments compiles with [rawtypes] warnings, and with them it"
        + " is no " + what + " type esgen supports; remove the type parameters from " + type
        + ", or use a non-generic type";
  }

  public static String notInSnapshot(String aggregate, String annotation, String field, String left) {
    return "[esgen:not-in-snapshot] @" + annotation + " " + field + " of " + aggregate + " is " + left
        + ", so snapshots leave it out and a state read from one would lack it: remove " + left + " (snapshots"
        + " must hold the id and every index column)";
  }

  public static String accessorThrows(String aggregate, String field, String getter, String exception) {
    return "[esgen:accessor-throws] " + getter + "() of " + aggregate + " declares checked exception " + exception
        + ", which the generated code reading field " + field + " cannot pass on: drop the throws clause, or make"
        + " the field non-private so that it is read directly";
  }

  public static String noAccessor(String aggregate, String field, String getters) {
    return "[esgen:no-accessor] generated code cannot read private field " + field + " of " + aggregate
        + ": make it non-private or add an accessor " + getters;
  }

  public static String typeNotAccessible(String component, String type, String culprit, String aggregatePackage) {
    String fix = culprit.equals(type) ? "make " + type : "make " + culprit + " (which encloses " + type + ")";
    return "[esgen:type-not-accessible] " + component + "'s type " + type + " cannot be seen from package "
        + aggregatePackage + ", where the generated code that reads and looks it up lives: " + fix
        + " at least package-private (public when it is in another package)";
  }

  public static String indexedId(String annotation, String component) {
    return "[esgen:indexed-id] @" + annotation + " on @AggregateId " + component
        + " is not needed: an aggregate is always found by its id; remove @" + annotation;
  }

  public static String tooManyIndexed(String aggregate, String component, int count, int max, boolean tip) {
    return "[esgen:too-many-indexed] " + aggregate + " has " + count + " @Indexed columns, " + component
        + " being number " + (max + 1) + ", but a DynamoDB table has at most 20 global secondary indexes, one per"
        + " @Indexed column" + (tip ? ", and the tip table's listing index takes one of them, so the tip layout"
            + " allows " + max : "") + ": make some of them plain components, or @Unique (a reservation, no index)";
  }

  public static String indexedAndUnique(String component) {
    return "[esgen:indexed-and-unique] " + component + " is both @Indexed and @Unique: @Unique alone already"
        + " gives findBy and loadBy (with strongly consistent reads); remove @Indexed";
  }

  public static String columnType(String annotation, String component, String type) {
    return "[esgen:column-type] @" + annotation + " " + component + " has type " + type
        + ", which esgen cannot index: use String, a primitive other than char or its box, BigInteger,"
        + " BigDecimal, an enum, UUID, Instant, LocalDate, or a record with exactly one component of one of"
        + " those types";
  }

  public static String invalidColumnName(String column) {
    return "[esgen:invalid-column-name] column = \"" + column + "\" must be ASCII letters, digits, '_', '.' or '-'"
        + " (it is part of the stored index keys), for example \"email\"";
  }

  public static String lookupClashesWithRepository(String annotation, String component, String method, String repository) {
    return "[esgen:lookup-clash] @" + annotation + " " + component + " would generate " + method + ", which "
        + repository + " already inherits from EventSourcedRepository: rename the component (lookups are"
        + " named after it; keep the stored name with column = \"" + component + "\")";
  }

  public static String columnConstantClash(String component, String other, String constant, String indexColumns) {
    return "[esgen:column-constant-clash] " + component + " and " + other + " would both be the constant "
        + constant + " of " + indexColumns + ": rename one of them";
  }

  public static String columnMethodClash(
      String component, String other, String lookup, String repository, String column) {
    return "[esgen:column-method-clash] " + component + " and " + other + " would both generate " + lookup
        + " in " + repository + ", as lookups are named after the component with its first letter capitalised:"
        + " rename one of them (keep its stored name with column = \"" + column + "\")";
  }

  public static String duplicateColumn(String component, String column, String other) {
    return "[esgen:duplicate-column] " + component + " is stored as column \"" + column + "\", like " + other
        + ": give one of them a distinct column = \"...\" in its @Indexed or @Unique";
  }

  public static String annotationOutsideAggregate(String annotation, String field, String owner, boolean isEvent) {
    String why = isEvent
        ? owner + " is an event (an aggregate's id and columns are read from its state)"
        : owner + " is not annotated @Aggregate";
    return "[esgen:annotation-without-effect] @" + annotation + " on " + field + " has no effect: esgen reads it on"
        + " the components of an @Aggregate type only, and " + why + "; remove it, or put it on the aggregate's"
        + " component";
  }

  public static String eventTypeOutsideEvents(String type) {
    return "[esgen:annotation-without-effect] @EventType on " + type + " has no effect: " + type + " extends or"
        + " implements no sealed type, so it is no aggregate's event; make it implement the sealed root of its"
        + " aggregate's events (listed in its permits clause), or remove the annotation";
  }

  public static String eventTypeBelowNoRoot(String type, String sealed) {
    return "[esgen:annotation-without-effect] @EventType on " + type + " has no effect: the sealed types it"
        + " extends or implements (" + sealed + " at the top) are below no @DomainEvents root, and an"
        + " aggregate's events must be; annotate the root of its aggregate's events with @DomainEvents, or remove"
        + " the annotation";
  }

  public static String annotationOnStaticField(String annotation, String field) {
    return "[esgen:annotation-without-effect] @" + annotation + " on static " + field + " has no effect: a"
        + " static field is no part of the aggregate's state; remove it, or put it on an instance field";
  }

  public static String annotationOnEnumConstant(String annotation, String constant, String enumType) {
    return "[esgen:annotation-without-effect] @" + annotation + " on constant " + constant + " of enum " + enumType
        + " has no effect: esgen reads it on the components (or instance fields) of an @Aggregate type only;"
        + " remove it, or put it on the aggregate's component that holds a " + enumType;
  }

  public static String annotationOnParameter(String annotation, String parameter, String method) {
    return "[esgen:annotation-without-effect] @" + annotation + " on parameter " + parameter + " of " + method
        + " has no effect: esgen reads it on the components (or instance fields) of an @Aggregate type only;"
        + " remove it, or put it on the component or field";
  }

  // ---- the component model

  public static String unknownComponentModel(String option, String value, List<String> allowed) {
    return "[esgen:unknown-component-model] -A" + option + "=" + value + " is not a component model: use one of "
        + String.join(", ", allowed) + " (for example -A" + option + "=spring); the repositories are generated"
        + " without dependency-injection annotations until it is fixed";
  }

  public static String componentModelDependencyMissing(
      String model, String repository, List<String> missing, String dependency, List<String> allowed) {
    return "[esgen:component-model-dependency] -Aesgen.componentModel=" + model + " annotates " + repository
        + " with " + String.join(" and ", missing.stream().map(name -> "@" + name).toList()) + ", which "
        + (missing.size() == 1 ? "is" : "are") + " not on the compile class path: add the dependency " + dependency
        + " to the project, or choose another component model (" + String.join(", ", allowed) + ")";
  }

  /**
   * In a named module the annotations are found only in modules it reads; {@code transitive}, because
   * javac's {@code exports} lint warns about annotations of an unexported module on a public class.
   */
  public static String componentModelModuleNotRead(String model, String repository, List<String> missing,
      String module, List<String> required, String dependency, List<String> allowed) {
    return "[esgen:component-model-dependency] -Aesgen.componentModel=" + model + " annotates " + repository
        + " with " + String.join(" and ", missing.stream().map(name -> "@" + name).toList()) + ", which module "
        + module + " does not read: add " + String.join(" and ", required.stream()
            .map(name -> "\"requires transitive " + name + ";\"").toList()) + " to its module-info.java (and the"
        + " dependency " + dependency + " to the project if it is not there), or choose another component model ("
        + String.join(", ", allowed) + ")";
  }

  // ---- processing

  public static String unresolvedType(String aggregate, List<String> types) {
    return "[esgen:unresolved-type] esgen did not generate code for " + aggregate + " because "
        + String.join(", ", types) + " could not be resolved: fix the errors above first";
  }

  public static String hiddenInUnnamedPackage(String type, String nested, String aggregate) {
    return "[esgen:unnamed-package-clash] " + type + " is in the unnamed package, where the generated " + nested
        + " hides it from the code generated for " + aggregate + ", and a type there has no qualified name to"
        + " reach it by: rename " + type + ", or move the domain into a named package";
  }

  public static String generatedNameTaken(String file, String aggregate) {
    return "[esgen:write-failed] could not write " + file + " for " + aggregate + ": a class of that name is"
        + " declared in this compilation; rename that class or the aggregate";
  }

  public static String writeFailed(String file, String problem) {
    return "[esgen:write-failed] could not write " + file + ": " + problem
        + "; if you declared a class of that name yourself, rename it; otherwise another aggregate may produce the"
        + " same name (a nested Outer.A and a top-level Outer_A both generate Outer_A...), so rename one of them";
  }

  public static String internalError(String aggregate, String exception) {
    return "[esgen:internal-error] esgen failed while processing " + aggregate + ": " + exception
        + "; please report this with the aggregate's source";
  }

  // ---- event versions, upcasters and snapshot fingerprints (docs/evolution.md)

  public static String invalidEventVersion(String event, int version) {
    return "[esgen:invalid-event-version] @EventType(version = " + version + ") on " + event
        + " must be 1 or more: versions count the stored shapes of an event, the first being 1";
  }

  public static String blankAlias(String event) {
    return "[esgen:blank-alias] an alias of " + event + " is blank: aliases are names " + event
        + " was stored under before; remove the blank one";
  }

  public static String aliasClash(String alias, String event, String clash) {
    return "[esgen:alias-clash] alias \"" + alias + "\" of " + event + " is " + clash
        + ": a stored name must lead to exactly one event type; remove it from " + event + "'s aliases";
  }

  public static String upcastersNotAClass(String root, String listed) {
    return "[esgen:upcasters-without-upcasters] @DomainEvents(upcasters = ...) on " + root + " lists " + listed
        + ", which is no class: list the classes that declare the @Upcast methods";
  }

  public static String upcastersWithoutUpcasters(String root, String listed) {
    return "[esgen:upcasters-without-upcasters] @DomainEvents(upcasters = ...) on " + root + " lists " + listed
        + ", which declares no @Upcast method: list the classes that declare them, or remove it";
  }

  public static String upcastIgnored(String method, String holder) {
    return "[esgen:upcast-ignored] upcaster " + method + " in " + holder + " is never called: esgen looks for"
        + " upcasters in the event classes and in the classes of @DomainEvents(upcasters = ...); move it to the"
        + " event class whose versions it reads, or list its class there";
  }

  public static String upcastSignature(String method, String problem, String exampleType) {
    return "[esgen:upcast-signature] upcaster " + method + " " + problem + ": an upcaster is a static, non-private"
        + " method taking the stored JSON, such as \"static ObjectNode " + exampleType + "(ObjectNode json)\""
        + " returning the next version's JSON, or returning the event (or a List of the events) it stands for now";
  }

  public static String upcastTypeMissing(String method, String holder) {
    return "[esgen:upcast-type-missing] upcaster " + method + " in " + holder + " does not say which stored type it"
        + " reads: add type = \"...\" (the @EventType name) to its @Upcast, or move it into that event's class";
  }

  public static String upcastTypeBlank(String method, String holder) {
    return "[esgen:upcast-type-missing] upcaster " + method + " in " + holder + " reads a blank type, which no"
        + " event is stored under: write the @EventType name of the type it reads";
  }

  public static String upcastAlias(String method, String alias, String event, String name) {
    return "[esgen:upcast-alias] upcaster " + method + " reads type \"" + alias + "\", an alias of " + event
        + ": events stored under an alias share " + event + "'s versions, so write type = \"" + name
        + "\" (or leave type out inside " + event + ")";
  }

  public static String upcastVersionTooLow(String method, int from) {
    return "[esgen:upcast-version] upcaster " + method + " reads version " + from
        + ", which no event has: stored versions start at 1; write from = 1 or more";
  }

  public static String upcastVersionNotStored(String method, String event, int from, int current) {
    return "[esgen:upcast-version] upcaster " + method + " reads version " + from + " of " + event
        + ", but " + event + " is at version " + current + ", so every stored one is at version " + current
        + " or below and version " + current + " is read as it is: "
        + (from == Integer.MAX_VALUE
            ? "no version follows " + from + ", the largest int; remove this upcaster"
            : "if " + event + "'s shape changed, raise @EventType(version = " + (from + 1) + ") on " + event
                + "; otherwise remove this upcaster");
  }

  public static String duplicateUpcast(String method, String type, int from, String other) {
    return "[esgen:duplicate-upcast] upcaster " + method + " reads version " + from + " of \"" + type + "\", like "
        + other + ": one upcaster per stored version; remove one of them";
  }

  public static String upcastGap(String event, int current, List<UpcasterAnalyzer.Gap> missing, String example) {
    return "[esgen:upcast-gap] " + event + " is at version " + current + ", but no upcaster reads stored "
        + versions(missing) + ", so such events could not be read: add \"" + example + "\" to " + event;
  }

  public static String retiredUpcastGap(String type, List<UpcasterAnalyzer.Gap> missing, String example) {
    return "[esgen:upcast-gap] no upcaster reads " + versions(missing) + " of the retired type \"" + type
        + "\", while one reads a later version: add \"" + example + "\" beside it";
  }

  public static String upcastDeadEnd(String method, String type, int from) {
    if (from == Integer.MAX_VALUE) {
      return "[esgen:upcast-dead-end] upcaster " + method + " turns version " + from + " of \"" + type
          + "\" into JSON of a next version, and no version follows " + from + ", the largest int: return the"
          + " event it stands for now, or a List of them";
    }
    return "[esgen:upcast-dead-end] upcaster " + method + " turns version " + from + " of \"" + type
        + "\" into the JSON of version " + (from + 1) + ", which no upcaster reads and no event class holds"
        + " (\"" + type + "\" is no current event's name): return the event it stands for now, or a List of"
        + " them, or add an upcaster from = " + (from + 1);
  }

  public static String upcastNotAccessible(String method, String culprit, String aggregatePackage) {
    return "[esgen:upcast-not-accessible] upcaster " + method + " cannot be called from package " + aggregatePackage
        + ", where the generated codec lives: make " + culprit + " public (or package-private in that package)";
  }

  public static String invalidSnapshotVersion(int version) {
    return "[esgen:invalid-snapshot-version] snapshotVersion = " + version
        + " must be 1 or more; raise it by one to make every stored snapshot stale";
  }

  /** {@code version 1}, {@code versions 1, 2 and 4}, {@code versions 1 to 20240114}. */
  private static String versions(List<UpcasterAnalyzer.Gap> gaps) {
    List<String> parts = new ArrayList<>();
    for (UpcasterAnalyzer.Gap gap : gaps) {
      if (gap.last() - gap.first() < 3) {
        for (int version = gap.first(); version <= gap.last(); version++) {
          parts.add(String.valueOf(version));
        }
      } else {
        parts.add(gap.first() + " to " + gap.last());
      }
    }
    StringBuilder text = new StringBuilder(parts.size() == 1 && !parts.get(0).contains(" ") ? "version " : "versions ");
    for (int i = 0; i < parts.size(); i++) {
      text.append(i == 0 ? "" : i == parts.size() - 1 ? " and " : ", ").append(parts.get(i));
    }
    return text.toString();
  }
}
