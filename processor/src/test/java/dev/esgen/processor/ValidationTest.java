package dev.esgen.processor;

import static com.google.testing.compile.CompilationSubject.assertThat;
import static com.google.testing.compile.Compiler.javac;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.testing.compile.Compilation;
import com.google.testing.compile.JavaFileObjects;
import dev.esgen.runtime.aggregate.LayoutKind;
import dev.esgen.runtime.internal.keys.IndexKeys;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * One test per validation rule: the message, the file and the line it lands on. Each fixture under
 * {@code src/test/resources/rules} is a whole small domain with one mistake.
 */
class ValidationTest {

  private static JavaFileObject rule(String name) {
    return JavaFileObjects.forResource("rules/" + name + ".java");
  }

  private static Compilation compile(JavaFileObject source) {
    return javac().withProcessors(new EsgenProcessor()).withOptions("-Xlint:all").compile(source);
  }

  @Test
  void aggregateMustBeARecordOrClass() {
    JavaFileObject source = rule("AggregateOnInterface");
    Compilation compilation = compile(source);
    assertThat(compilation)
        .hadErrorContaining("[esgen:aggregate-kind] @Aggregate BankAccount is an interface")
        .inFile(source)
        .onLineContaining("@Aggregate(");
  }

  @Test
  void aggregateMustNotBeAbstract() {
    JavaFileObject source = rule("AbstractAggregate");
    Compilation compilation = compile(source);
    assertThat(compilation)
        .hadErrorContaining("[esgen:aggregate-abstract] @Aggregate BankAccount is abstract: esgen builds it")
        .inFile(source)
        .onLineContaining("@Aggregate(");
  }

  @Test
  void aggregateClassMustBeFinal() {
    JavaFileObject source = rule("NonFinalAggregate");
    Compilation compilation = compile(source);
    assertThat(compilation)
        .hadErrorContaining("[esgen:aggregate-not-final] @Aggregate BankAccount is not final: declare it \"final\"")
        .inFile(source)
        .onLineContaining("@Aggregate(");
  }

  @Test
  void nestedAggregateMustBeStatic() {
    JavaFileObject source = rule("InnerAggregate");
    Compilation compilation = compile(source);
    assertThat(compilation)
        .hadErrorContaining("[esgen:aggregate-inner] @Aggregate Bank.BankAccount is an inner class: declare it \"static\"")
        .inFile(source)
        .onLineContaining("@Aggregate(");
  }

  @Test
  void eventsMustBeAnnotatedDomainEvents() {
    JavaFileObject source = rule("EventsWithoutDomainEvents");
    Compilation compilation = compile(source);
    assertThat(compilation)
        .hadErrorContaining(
            "[esgen:events-not-domain-events] BankAccount's events type AccountEvent is not annotated @DomainEvents")
        .inFile(source)
        .onLineContaining("events = AccountEvent.class");
  }

  @Test
  void eventsMustBeSealed() {
    JavaFileObject source = rule("EventsNotSealed");
    Compilation compilation = compile(source);
    assertThat(compilation)
        .hadErrorContaining("[esgen:events-not-sealed] BankAccount's events type AccountEvent is not sealed")
        .inFile(source)
        .onLineContaining("events = AccountEvent.class");
  }

  @Test
  void everyEventNeedsAHandler() {
    JavaFileObject source = rule("NoHandler");
    Compilation compilation = compile(source);
    assertThat(compilation)
        .hadErrorContaining(
            "[esgen:no-handler] event AccountClosed has no handler: add \"BankAccount apply(AccountClosed e)\" to BankAccount")
        .inFile(source)
        .onLineContaining("@Aggregate(");
    assertThat(compilation).hadErrorCount(1);
  }

  @Test
  void aSealedClassLevelMustBeAbstract() {
    JavaFileObject source = rule("SealedClassLevels");
    Compilation compilation = compile(source);
    assertThat(compilation)
        .hadErrorContaining("[esgen:sealed-level-not-abstract] sealed class LedgerEvent is not abstract")
        .inFile(source)
        .onLineContaining("sealed class LedgerEvent");
    assertThat(compilation)
        .hadErrorContaining("[esgen:sealed-level-not-abstract] sealed class Booking is not abstract")
        .inFile(source)
        .onLineContaining("sealed class Booking");
    assertThat(compilation).hadErrorCount(2);
  }

  /**
   * Jackson writes what a class inherits as its own: the public field of a sealed level is a property of
   * the events below it, which declare none themselves, and a base class's of the aggregate.
   */
  @Test
  void inheritedPropertiesCountAsTheClassesOwn() {
    Compilation compilation = compile(rule("InheritedEventFields"));
    assertThat(compilation).succeeded();
  }

  @Test
  void aGetterTheGeneratedCodeWouldCallMustNotThrowCheckedExceptions() {
    JavaFileObject source = rule("AccessorThrows");
    Compilation compilation = compile(source);
    assertThat(compilation)
        .hadErrorContaining("[esgen:accessor-throws] getId() of Desk declares checked exception java.io.IOException")
        .inFile(source)
        .onLineContaining("public String getId() throws IOException");
    assertThat(compilation)
        .hadErrorContaining("[esgen:accessor-throws] getOwner() of Desk declares checked exception java.lang.Exception")
        .inFile(source)
        .onLineContaining("public String getOwner() throws Exception");
    assertThat(compilation).hadErrorCount(2);
  }

  @Test
  void theIdAndIndexColumnsMustBeInTheSnapshot() {
    JavaFileObject source = rule("NotInSnapshot");
    Compilation compilation = compile(source);
    assertThat(compilation)
        .hadErrorContaining("[esgen:not-in-snapshot] @AggregateId id of Room is transient")
        .inFile(source)
        .onLineContaining("@AggregateId public transient String id;");
    assertThat(compilation)
        .hadErrorContaining("[esgen:not-in-snapshot] @Indexed owner of Room is @JsonIgnore")
        .inFile(source)
        .onLineContaining("@Indexed @JsonIgnore public String owner;");
    assertThat(compilation)
        .hadErrorContaining("[esgen:not-in-snapshot] @Unique code of Door is @JsonIgnore")
        .inFile(source)
        .onLineContaining("record Door(");
    assertThat(compilation).hadErrorCount(3);
  }

  @Test
  void anAggregateNameLongerThanTheKeysLeaveRoomForIsAnError() {
    String longest = "a".repeat(966);
    Compilation fits = compile(longNamed(longest));
    assertThat(fits).succeeded();

    JavaFileObject source = longNamed(longest + "b");
    Compilation tooLong = compile(source);
    assertThat(tooLong)
        .hadErrorContaining("[esgen:name-too-long] the aggregate name has 967 characters, at most 966 are allowed")
        .inFile(source)
        .onLineContaining("@Aggregate(");
    assertThat(tooLong).hadErrorCount(1);
  }

  private static JavaFileObject longNamed(String name) {
    return JavaFileObjects.forSourceString("fixture.Pad", """
        package fixture;

        import dev.esgen.annotations.Aggregate;
        import dev.esgen.annotations.AggregateId;
        import dev.esgen.annotations.DomainEvents;

        @DomainEvents
        sealed interface PadEvent permits PadOpened {}

        record PadOpened(String id) implements PadEvent {}

        @Aggregate(name = "%s", events = PadEvent.class)
        record Pad(@AggregateId String id) {
          static Pad open(PadOpened e) {
            return new Pad(e.id());
          }
        }
        """.formatted(name));
  }

  @Test
  void aVarargsEventParameterIsOneErrorOnTheMethod() {
    JavaFileObject source = rule("VarargsHandlers");
    Compilation compilation = compile(source);
    assertThat(compilation)
        .hadErrorContaining("[esgen:event-varargs] open takes its event as varargs (TillOpened...), but the generated"
            + " replay creates the aggregate from one event at a time")
        .inFile(source)
        .onLineContaining("static Till open(TillOpened... e)");
    assertThat(compilation)
        .hadErrorContaining("[esgen:event-varargs] apply takes its event as varargs (TillClosed...)")
        .inFile(source)
        .onLineContaining("Till apply(TillClosed... e)");
    assertThat(compilation).hadErrorCount(2);
  }

  @Test
  void aNonSealedPermittedEventCannotBeEnumerated() {
    JavaFileObject source = rule("NonSealedEvent");
    Compilation compilation = compile(source);
    assertThat(compilation)
        .hadErrorContaining("[esgen:event-not-enumerable] AuditEvent (permitted by AccountEvent) is neither sealed nor final")
        .inFile(source)
        .onLineContaining("non-sealed interface AuditEvent");
  }

  /**
   * javac rejects the permits clause after processing, and only when no processor reported an error and
   * every type the user's code names exists: esgen reports nothing and generates the repository without
   * the stray type, so javac's own error is the only one.
   */
  @Test
  void aPermittedTypeThatIsNoSubtypeIsLeftToJavac() {
    JavaFileObject source = rule("InvalidPermits");
    Compilation compilation = compile(source);
    assertThat(compilation)
        .hadErrorContaining("invalid permits clause")
        .inFile(source)
        .onLineContaining("sealed interface ThingEvent");
    assertThat(compilation).hadErrorCount(1);
  }

  @Test
  void aPermittedClassWithoutSealingModifierIsLeftToJavac() {
    JavaFileObject source = rule("PermittedWithoutModifier");
    Compilation compilation = compile(source);
    assertThat(compilation)
        .hadErrorContaining("sealed, non-sealed or final modifiers expected")
        .inFile(source)
        .onLineContaining("class ThingRenamed implements ThingEvent");
    assertThat(compilation).hadErrorCount(1);
  }

  /** A sealed type read from a class file is not checked by javac, so esgen says what is wrong. */
  @Test
  void aClassFilePermittingATypeThatNoLongerImplementsItIsReported(@TempDir Path classes) throws IOException {
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    try (StandardJavaFileManager files = javac.getStandardFileManager(null, null, null)) {
      List<JavaFileObject> first = List.of(
          JavaFileObjects.forResource("separate/ThingEvent.java"),
          JavaFileObjects.forResource("separate/ThingOpened.java"),
          JavaFileObjects.forResource("separate/ThingRenamed.java"));
      assertTrue(javac.getTask(null, files, null, List.of("-proc:none", "-d", classes.toString()), null, first).call());
    }
    JavaFileObject renamed = JavaFileObjects.forResource("separate/ChangedThingRenamed.java");
    Compilation compilation = javac()
        .withProcessors(new EsgenProcessor())
        .withClasspath(classPathWith(classes))
        .compile(renamed, JavaFileObjects.forResource("separate/Thing.java"));
    assertThat(compilation)
        .hadErrorContaining("[esgen:permitted-not-subtype] ThingEvent permits ThingRenamed, but ThingRenamed does not"
            + " extend or implement it: their class files come from different compilations; compile ThingEvent and"
            + " its events together")
        .inFile(renamed)
        .onLineContaining("record ThingRenamed(");
    assertThat(compilation).hadErrorCount(1);
  }

  /** A library's events have no line to report on: their errors land on the events value that reached them. */
  @Test
  void errorsOnEventsFromClassFilesAreReportedOnTheEventsValue(@TempDir Path classes) throws IOException {
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    try (StandardJavaFileManager files = javac.getStandardFileManager(null, null, null)) {
      List<JavaFileObject> library = Stream.of("LibEvent", "LibOpened", "Hidden", "Colors", "Open")
          .map(name -> JavaFileObjects.forResource("library/" + name + ".java"))
          .toList();
      assertTrue(javac.getTask(null, files, null, List.of("-proc:none", "-d", classes.toString()), null, library).call());
    }
    JavaFileObject shelf = JavaFileObjects.forResource("library/Shelf.java");
    Compilation compilation = javac()
        .withProcessors(new EsgenProcessor())
        .withClasspath(classPathWith(classes))
        .compile(shelf);
    for (String error : List.of(
        "[esgen:event-not-accessible] event Hidden cannot be seen from package fixture",
        "[esgen:event-enum] Colors is an enum",
        "[esgen:event-not-enumerable] Open (permitted by LibEvent) is neither sealed nor final")) {
      assertThat(compilation).hadErrorContaining(error).inFile(shelf).onLineContaining("events = LibEvent.class");
    }
    assertThat(compilation).hadErrorCount(3);
  }

  private static List<File> classPathWith(Path classes) {
    List<File> path = new ArrayList<>();
    path.add(classes.toFile());
    for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
      path.add(new File(entry));
    }
    return path;
  }

  @Test
  void twoHandlersMustNotCoverTheSameEvent() {
    JavaFileObject source = rule("DuplicateHandler");
    Compilation compilation = compile(source);
    assertThat(compilation)
        .hadErrorContaining(
            "[esgen:duplicate-handler] apply(MoneyDeposited) handles MoneyDeposited, which apply(AccountEvent) already handles")
        .inFile(source)
        .onLineContaining("BankAccount apply(MoneyDeposited e)");
    assertThat(compilation).hadErrorCount(1);
  }

  @Test
  void aHandlerOfAnIntermediateAndOneOfItsLeavesOverlap() {
    JavaFileObject source = rule("DuplicateHandlerAcrossLevels");
    Compilation compilation = compile(source);
    assertThat(compilation)
        .hadErrorContaining(
            "[esgen:duplicate-handler] apply(MoneyWithdrawn) handles MoneyWithdrawn, which apply(MoneyEvent) already handles")
        .inFile(source)
        .onLineContaining("BankAccount apply(MoneyWithdrawn e)");
  }

  @Test
  void anAggregateNeedsACreatingMethod() {
    JavaFileObject source = rule("NoCreator");
    Compilation compilation = compile(source);
    assertThat(compilation)
        .hadErrorContaining(
            "[esgen:no-creator] BankAccount has no creating method: add \"static BankAccount create(AccountOpened e)\"")
        .inFile(source)
        .onLineContaining("@Aggregate(");
  }

  @Test
  void anAggregateHasOnlyOneCreatingMethod() {
    JavaFileObject source = rule("DuplicateCreator");
    Compilation compilation = compile(source);
    assertThat(compilation)
        .hadErrorContaining(
            "[esgen:duplicate-creator] reopen(AccountOpened) is a second creating method besides open(AccountOpened)")
        .inFile(source)
        .onLineContaining("static BankAccount reopen(");
  }

  /** The second creator's event is that one mistake, not also an event without a handler. */
  @Test
  void aSecondCreatorOfAnotherEventIsOneError() {
    JavaFileObject source = rule("SecondCreatorOfAnotherEvent");
    Compilation compilation = compile(source);
    assertThat(compilation)
        .hadErrorContaining("[esgen:duplicate-creator] open(NoteImported) is a second creating method besides"
            + " open(NoteOpened)")
        .inFile(source)
        .onLineContaining("static Note open(NoteImported e)");
    assertThat(compilation).hadErrorCount(1);
  }

  /** The id written on a constructor's parameter is that one mistake, not also a missing id. */
  @Test
  void anIdOnAConstructorParameterIsOneError() {
    JavaFileObject source = rule("IdOnConstructorParameter");
    Compilation compilation = compile(source);
    assertThat(compilation)
        .hadErrorContaining("[esgen:annotation-without-effect] @AggregateId on parameter id of a constructor of Note"
            + " has no effect")
        .inFile(source)
        .onLineContaining("Note(@AggregateId String id");
    assertThat(compilation).hadErrorCount(1);

    // On a static field and a handler's parameter alike: each is its own error, and no missing id besides.
    JavaFileObject elsewhere = rule("IdOnStaticFieldAndHandlerParameter");
    Compilation both = compile(elsewhere);
    assertThat(both).hadErrorContaining("@AggregateId on static").inFile(elsewhere).onLineContaining("DEFAULT_ID");
    assertThat(both).hadErrorContaining("@AggregateId on parameter e").inFile(elsewhere).onLineContaining("open(");
    assertThat(both).hadErrorCount(2);
  }

  @Test
  void storedEventNamesMustBeDistinct() {
    JavaFileObject source = rule("DuplicateEventType");
    Compilation compilation = compile(source);
    assertThat(compilation)
        .hadErrorContaining(
            "[esgen:duplicate-event-type] event AccountClosed is stored as \"money-moved\", like MoneyDeposited")
        .inFile(source)
        .onLineContaining("record AccountClosed(");
  }

  @Test
  void defaultStoredNamesOfNestedEventsMustBeDistinct() {
    JavaFileObject source = rule("DuplicateDefaultEventType");
    Compilation compilation = compile(source);
    assertThat(compilation)
        .hadErrorContaining(
            "[esgen:duplicate-event-type] event Modern.Opened is stored as \"Opened\", like Legacy.Opened")
        .inFile(source)
        .onLineContaining("// modern");
  }

  @Test
  void storedEventNameMustNotBeBlank() {
    JavaFileObject source = rule("BlankEventType");
    Compilation compilation = compile(source);
    assertThat(compilation)
        .hadErrorContaining("[esgen:blank-event-type] @EventType on AccountClosed is blank")
        .inFile(source)
        .onLineContaining("record AccountClosed(");
  }

  @Test
  void anAggregateNeedsAnId() {
    JavaFileObject source = rule("NoId");
    Compilation compilation = compile(source);
    assertThat(compilation)
        .hadErrorContaining("[esgen:no-id] BankAccount has no @AggregateId: annotate the component that identifies it")
        .inFile(source)
        .onLineContaining("@Aggregate(");
  }

  @Test
  void anAggregateHasOnlyOneId() {
    JavaFileObject source = rule("DuplicateId");
    Compilation compilation = compile(source);
    assertThat(compilation)
        .hadErrorContaining("[esgen:duplicate-id] other is a second @AggregateId besides id")
        .inFile(source)
        .onLineContaining("@AggregateId AccountId other");
  }

  @Test
  void idTypeMustBeStringUuidOrAWrapperOfThem() {
    JavaFileObject source = rule("UnsupportedIdType");
    Compilation compilation = compile(source);
    assertThat(compilation)
        .hadErrorContaining(
            "[esgen:id-type] @AggregateId number has type long, which esgen cannot turn into a key: use String,"
                + " java.util.UUID, or a record wrapping exactly one of them")
        .inFile(source)
        .onLineContaining("@AggregateId long number");
  }

  @Test
  void aPrivateIdFieldNeedsAnAccessor() {
    JavaFileObject source = rule("PrivateIdField");
    Compilation compilation = compile(source);
    assertThat(compilation)
        .hadErrorContaining(
            "[esgen:no-accessor] generated code cannot read private field id of BankAccount: make it non-private or"
                + " add an accessor \"fixture.AccountId id()\"")
        .inFile(source)
        .onLineContaining("@AggregateId private AccountId id");
  }

  @Test
  void handlersMustHaveTheHandlerShape() {
    JavaFileObject source = rule("HandlerShapes");
    Compilation compilation = compile(source);
    assertThat(compilation)
        .hadErrorContaining(
            "[esgen:handler-shape] this apply handler is static: handlers look like \"BankAccount apply(AccountOpened e)\"")
        .inFile(source)
        .onLineContaining("static BankAccount apply(AccountOpened e, long x)");
    assertThat(compilation)
        .hadErrorContaining("[esgen:handler-shape] this apply handler takes 2 parameters")
        .inFile(source)
        .onLineContaining("BankAccount apply(MoneyDeposited e, String note)");
    assertThat(compilation)
        .hadErrorContaining(
            "[esgen:handler-shape] this apply handler takes java.lang.String, which is not an event of AccountEvent")
        .inFile(source)
        .onLineContaining("BankAccount apply(String command)");
    assertThat(compilation)
        .hadErrorContaining("[esgen:handler-shape] this apply handler returns void")
        .inFile(source)
        .onLineContaining("void apply(AccountOpened e)");
    assertThat(compilation)
        .hadErrorContaining("[esgen:handler-private] apply handlers are called by the generated BankAccountRepository.Replay")
        .inFile(source)
        .onLineContaining("private BankAccount apply(AccountEvent e)");
    assertThat(compilation).hadErrorCount(5);
  }

  /** A record's accessor is never a handler, even one named apply that javac declares where no line is. */
  @Test
  void aComponentNamedApplyIsNoHandler() {
    Compilation compilation = compile(rule("ComponentNamedApply"));
    assertThat(compilation).succeeded();
    assertThat(compilation).generatedSourceFile("fixture.SwitchRepository").contentsAsUtf8String()
        .contains("state.apply(switchFlipped)");
    assertThat(compilation).generatedSourceFile("fixture.LeverRepository");
  }

  @Test
  void aHandlerOfTheWrongShapeIsOneErrorNotAlsoAMissingHandler() {
    JavaFileObject source = rule("VoidHandler");
    Compilation compilation = compile(source);
    assertThat(compilation)
        .hadErrorContaining("[esgen:handler-shape] this apply handler returns void: handlers look like"
            + " \"Thing apply(ThingRenamed e)\", an instance method returning Thing")
        .inFile(source)
        .onLineContaining("void apply(ThingRenamed e)");
    assertThat(compilation).hadErrorCount(1);
  }

  @Test
  void aGenericHandlerIsOneError() {
    JavaFileObject source = rule("GenericHandler");
    Compilation compilation = compile(source);
    assertThat(compilation)
        .hadErrorContaining("[esgen:handler-shape] this apply handler declares type parameters <E>: handlers look"
            + " like \"Thing apply(ThingRenamed e)\"")
        .inFile(source)
        .onLineContaining("<E extends ThingRenamed> Thing apply(E e)");
    assertThat(compilation).hadErrorCount(1);
  }

  @Test
  void handlersOfANonSealedLevelAreNotReportedAgain() {
    JavaFileObject source = rule("NonSealedLevel");
    Compilation compilation = compile(source);
    assertThat(compilation)
        .hadErrorContaining("[esgen:event-not-enumerable] ThingChanged (permitted by ThingEvent) is neither sealed nor final")
        .inFile(source)
        .onLineContaining("non-sealed interface ThingChanged");
    assertThat(compilation).hadErrorCount(1);
  }

  @Test
  void aStaticApplyBesideTheCreatingMethodIsAHandlerDeclaredStatic() {
    JavaFileObject source = rule("StaticApplyHandler");
    Compilation compilation = compile(source);
    assertThat(compilation)
        .hadErrorContaining("[esgen:handler-shape] this apply handler is static: handlers look like"
            + " \"Thing apply(ThingRenamed e)\"")
        .inFile(source)
        .onLineContaining("static Thing apply(ThingRenamed e)");
    assertThat(compilation).hadErrorCount(1);
  }

  @Test
  void aStaticApplyIsTheCreatingMethodWhenThereIsNoOther() {
    Compilation compilation = compile(rule("StaticApplyCreates"));
    assertThat(compilation).succeeded();
    assertThat(compilation)
        .generatedSourceFile("fixture.ThingRepository")
        .contentsAsUtf8String()
        .contains("return Thing.apply(");
  }

  @Test
  void aCreatingMethodWithoutStaticIsToldToBeStatic() {
    JavaFileObject source = rule("NonStaticCreator");
    Compilation compilation = compile(source);
    assertThat(compilation)
        .hadErrorContaining("[esgen:creator-not-static] create(ThingOpened) would build Thing from the first event"
            + " of its stream, but it is an instance method, and there is no Thing to call it on before that event:"
            + " make it static")
        .inFile(source)
        .onLineContaining("Thing create(ThingOpened e)");
    assertThat(compilation).hadErrorCount(1);
  }

  @Test
  void aCreatingMethodTakingMoreThanItsEventIsToldSo() {
    JavaFileObject source = rule("CreatorWithExtraParameter");
    Compilation compilation = compile(source);
    assertThat(compilation)
        .hadErrorContaining("[esgen:creator-shape] open(ThingOpened, Clock) would be Thing's creating method, but it"
            + " takes 2 parameters: the creating method takes the first event of a stream and nothing else and returns"
            + " Thing, as in \"static Thing open(ThingOpened e)\" (take anything else it needs from the event)")
        .inFile(source)
        .onLineContaining("static Thing open(ThingOpened e, Clock clock)");
    assertThat(compilation).hadErrorCount(1);
  }

  @Test
  void aHandlerUnderAnotherNameIsToldToBeNamedApply() {
    JavaFileObject source = rule("HandlerNotNamedApply");
    Compilation compilation = compile(source);
    assertThat(compilation)
        .hadErrorContaining("[esgen:handler-name] on(ThingRenamed) has the shape of a handler of ThingRenamed, but"
            + " esgen calls only handlers named apply: rename it to apply")
        .inFile(source)
        .onLineContaining("Thing on(ThingRenamed e)");
    assertThat(compilation).hadErrorCount(1);
  }

  @Test
  void anInheritedHandlerIsNamedWhenItsEventHasNone() {
    JavaFileObject source = rule("InheritedHandler");
    Compilation compilation = compile(source);
    assertThat(compilation)
        .hadErrorContaining("[esgen:no-handler] event ThingRenamed has no handler in Thing: apply(ThingRenamed) is"
            + " inherited from NamedThing, and esgen calls only the handlers Thing declares itself; declare \"Thing"
            + " apply(ThingRenamed e)\" in Thing (it may call the inherited one)")
        .inFile(source)
        .onLineContaining("@Aggregate(");
    assertThat(compilation).hadErrorCount(1);
  }

  @Test
  void aCommandNamedApplyIsToldItIsOne() {
    JavaFileObject source = rule("CommandNamedApply");
    Compilation compilation = compile(source);
    assertThat(compilation)
        .hadErrorContaining("[esgen:handler-shape] this apply handler returns java.util.List<fixture.ThingEvent>, as a"
            + " command does (name commands after what they do): handlers look like \"Thing apply(ThingRenamed e)\"")
        .inFile(source)
        .onLineContaining("List<ThingEvent> apply(ThingRenamed e)");
    assertThat(compilation).hadErrorCount(1);
  }

  @Test
  void anEventMissingFromThePermitsClauseIsLeftToJavac() {
    JavaFileObject source = rule("EventNotPermitted");
    Compilation compilation = compile(source);
    assertThat(compilation)
        .hadErrorContaining("class is not allowed to extend sealed class: fixture.ThingEvent")
        .inFile(source)
        .onLineContaining("record ThingRenamed(");
    assertThat(compilation).hadErrorCount(1);
  }

  /** Without its creating method's event there is no repository to generate, and nothing for esgen to say. */
  @Test
  void aCreatorTakingAnEventMissingFromThePermitsClauseIsLeftToJavac() {
    JavaFileObject source = rule("CreatorTakesEventNotPermitted");
    Compilation compilation = compile(source);
    assertThat(compilation)
        .hadErrorContaining("class is not allowed to extend sealed class: fixture.ThingEvent")
        .inFile(source)
        .onLineContaining("record ThingOpened(");
    assertThat(compilation).hadErrorCount(1);
  }

  @Test
  void innerClassesJacksonCannotBuildAreRefused() {
    JavaFileObject source = rule("InnerClassEvent");
    Compilation compilation = compile(source);
    assertThat(compilation)
        .hadErrorContaining("[esgen:event-inner] event ThingEvents.ThingRenamed is an inner class, which Jackson"
            + " cannot build without an instance of ThingEvents to hold it: declare it static (or make it a record)")
        .inFile(source)
        .onLineContaining("final class ThingRenamed");
    assertThat(compilation)
        .hadErrorContaining("[esgen:json-inner-class] component tag of aggregate Thing has type fixture.Thing.Tag,"
            + " which Jackson cannot read back: Thing.Tag is an inner class, which Jackson builds only as a field of a"
            + " Thing it has built first; declare it static (or make it a record)")
        .inFile(source)
        .onLineContaining("record Thing(");
    assertThat(compilation).hadErrorCount(2);
  }

  @Test
  void aClassEventNeedsAConstructorJacksonCanUse() {
    JavaFileObject source = rule("EventWithoutJacksonConstructor");
    Compilation compilation = compile(source);
    assertThat(compilation)
        .hadErrorContaining(
            "[esgen:event-not-deserializable] event AccountClosed cannot be read back from storage: add a non-private"
                + " no-argument constructor, or annotate a constructor with @JsonCreator")
        .inFile(source)
        .onLineContaining("final class AccountClosed");
  }

  @Test
  void everyFieldOfAClassAggregateIsVisibleToJackson() {
    JavaFileObject source = rule("AggregateFieldInvisibleToJackson");
    Compilation compilation = compile(source);
    assertThat(compilation)
        .hadErrorContaining(
            "[esgen:field-invisible-to-jackson] Jackson cannot see field total of Counter (it detects public fields,")
        .inFile(source)
        .onLineContaining("private final long total;");
    assertThat(compilation).hadErrorContaining("every snapshot would silently lose it: add \"public long getTotal()\"");
  }

  @Test
  void everyFieldOfAClassEventIsVisibleToJackson() {
    JavaFileObject source = rule("EventFieldInvisibleToJackson");
    Compilation compilation = compile(source);
    assertThat(compilation)
        .hadErrorContaining(
            "[esgen:field-invisible-to-jackson] Jackson cannot see field amount of CounterAdded")
        .inFile(source)
        .onLineContaining("private final long amount;");
    assertThat(compilation).hadErrorContaining("every stored event would silently lose it");
  }

  @Test
  void aJsonCreatorNamesItsParameters() {
    JavaFileObject source = rule("CreatorWithoutPropertyNames");
    Compilation compilation = compile(source);
    assertThat(compilation)
        .hadErrorContaining(
            "[esgen:creator-parameter-names] Jackson cannot tell which properties the parameters from, to of this"
                + " @JsonCreator of CounterRenamed receive")
        .inFile(source)
        .onLineContaining("@JsonCreator");
  }

  @Test
  void aClassEventHasAPropertyJacksonCanWrite() {
    JavaFileObject source = rule("EmptyClassEvent");
    Compilation compilation = compile(source);
    assertThat(compilation)
        .hadErrorContaining("[esgen:event-without-properties] event CounterReset has no property Jackson can see")
        .inFile(source)
        .onLineContaining("final class CounterReset");
  }

  @Test
  void abstractTypesWithoutTypeInformationAreRefused() {
    JavaFileObject source = rule("JsonAbstractTypes");
    Compilation compilation = compile(source);
    assertThat(compilation)
        .hadErrorContaining("[esgen:json-abstract-type] component task of event JobScheduled has type"
            + " java.lang.Runnable, which Jackson writes but cannot read back: Runnable is an interface, and the"
            + " stored JSON does not say which class to build; hold the data in a record or final class instead")
        .inFile(source)
        .onLineContaining("record JobScheduled(");
    // Held by the snapshot and by an event, Shape is one mistake, reported where it is met first.
    assertThat(compilation)
        .hadErrorContaining("[esgen:json-abstract-type] component shapes of aggregate Job has type"
            + " java.util.List<fixture.Shape>, which Jackson writes but cannot read back: Shape is an interface, and"
            + " the stored JSON does not say which class to build; annotate Shape with @JsonTypeInfo(use ="
            + " JsonTypeInfo.Id.NAME) and @JsonSubTypes naming its implementations, or use a record or final class")
        .inFile(source)
        .onLineContaining("record Job(");
    assertThat(compilation).hadErrorCount(2);
  }

  @Test
  void eventsHeldInTheStateAreNotToBeAnnotatedWithTypeInformation() {
    JavaFileObject source = rule("EventsInState");
    Compilation compilation = compile(source);
    assertThat(compilation)
        .hadErrorContaining("[esgen:json-abstract-type] component history of aggregate Thing has type"
            + " java.util.List<fixture.ThingEvent>, which Jackson writes but cannot read back: ThingEvent is an"
            + " interface, and the stored JSON does not say which class to build; keep what is needed of these events"
            + " in records of their own (@JsonTypeInfo on ThingEvent would also change how every event is stored)")
        .inFile(source)
        .onLineContaining("record Thing(");
    assertThat(compilation).hadErrorCount(1);
  }

  @Test
  void aClassWithoutPropertiesIsRefused() {
    JavaFileObject source = rule("JsonEmptyType");
    Compilation compilation = compile(source);
    assertThat(compilation)
        .hadErrorContaining("[esgen:json-empty-type] component urgent of event JobScheduled has type fixture.Urgent,"
            + " which Jackson cannot write: Urgent has no property Jackson sees (a public field, a public getX()/isX()"
            + " or @JsonProperty) and no @JsonValue; make it a record, or give it a public getter for each field")
        .inFile(source)
        .onLineContaining("record JobScheduled(");
    assertThat(compilation).hadErrorCount(1);
  }

  @Test
  void aClassJacksonCannotConstructIsRefusedWhereverItIsHeld() {
    JavaFileObject source = rule("JsonNoCreator");
    Compilation compilation = compile(source);
    assertThat(compilation)
        .hadErrorContaining("[esgen:json-no-creator] component steps of event JobScheduled has type"
            + " java.util.List<fixture.Step> (through Step.timeout), which Jackson cannot read back: Duration has no"
            + " constructor Jackson can call (one without parameters, or one annotated @JsonCreator whose parameters"
            + " carry @JsonProperty); make it a record, or add such a constructor")
        .inFile(source)
        .onLineContaining("record JobScheduled(");
    assertThat(compilation).hadErrorCount(1);
  }

  @Test
  void mapKeysJacksonCannotReadBackAreRefused() {
    JavaFileObject source = rule("JsonMapKeys");
    Compilation compilation = compile(source);
    assertThat(compilation)
        .hadErrorContaining("[esgen:json-map-key] component assigned of event JobScheduled has type"
            + " java.util.Map<fixture.WorkerId,java.lang.String>, whose keys Jackson writes with toString() and reads"
            + " back through a constructor or static valueOf taking one String, but WorkerId does not override"
            + " toString(), so its keys would read back as other values: use String, a number, an enum, UUID or a"
            + " java.time type as the key")
        .inFile(source)
        .onLineContaining("record JobScheduled(");
    assertThat(compilation)
        .hadErrorContaining("[esgen:json-map-key] component planned of event JobScheduled has type"
            + " java.util.Map<fixture.Slot,java.lang.String>, whose keys Jackson writes with toString() and reads back"
            + " through a constructor or static valueOf taking one String, but Slot has no constructor,"
            + " valueOf(String) or fromString(String) taking the one String")
        .inFile(source)
        .onLineContaining("record JobScheduled(");
    assertThat(compilation).hadErrorCount(2);
  }

  @Test
  void idAndColumnTypesAreVisibleToTheGeneratedCode() {
    JavaFileObject source = rule("PrivateNestedTypes");
    Compilation compilation = compile(source);
    assertThat(compilation)
        .hadErrorContaining("[esgen:type-not-accessible] id's type Ticket.Id cannot be seen from package fixture,"
            + " where the generated code that reads and looks it up lives: make Ticket.Id at least package-private")
        .inFile(source)
        .onLineContaining("record Ticket(");
    assertThat(compilation)
        .hadErrorContaining("[esgen:type-not-accessible] status's type Ticket.Status cannot be seen")
        .inFile(source)
        .onLineContaining("record Ticket(");
    assertThat(compilation).hadErrorCount(2);
  }

  @Test
  void aTypeInsideAPrivateClassIsToldWhichClassIsPrivate() {
    JavaFileObject source = rule("InsidePrivateClasses");
    Compilation compilation = compile(source);
    assertThat(compilation)
        .hadErrorContaining("[esgen:aggregate-private] @Aggregate Domain.Model.Thing is declared in private class"
            + " Domain.Model: generated code in the same package must see it; make Domain.Model package-private or"
            + " public")
        .inFile(source)
        .onLineContaining("@Aggregate(");
    assertThat(compilation)
        .hadErrorContaining("[esgen:event-not-accessible] event Domain.Hidden.ThingOpened cannot be seen from package"
            + " fixture, where the generated code lives: make Domain.Hidden, which encloses it, public")
        .inFile(source)
        .onLineContaining("record ThingOpened(");
    assertThat(compilation).hadErrorCount(2);
  }

  @Test
  void messagesNameTheGeneratedClassesOfANestedAggregateAndTheDefaultStoredName() {
    JavaFileObject source = rule("NestedAggregateNames");
    Compilation compilation = compile(source);
    assertThat(compilation)
        .hadErrorContaining("[esgen:blank-event-type] @EventType on Outer.ThingEvent.Renamed is blank: give it a stable"
            + " stored name such as \"account-opened\", or remove it to use its simple class name \"Renamed\"")
        .inFile(source)
        .onLineContaining("record Renamed(");
    assertThat(compilation)
        .hadErrorContaining("[esgen:creator-private] the creating method is called by the generated Outer_ThingRepository.Replay")
        .inFile(source)
        .onLineContaining("private static Thing open(");
    assertThat(compilation)
        .hadErrorContaining("[esgen:handler-private] apply handlers are called by the generated Outer_ThingRepository.Replay")
        .inFile(source)
        .onLineContaining("private Thing apply(");
    assertThat(compilation)
        .hadErrorContaining("[esgen:lookup-clash] @Unique id would generate findById, which Outer_ThingRepository"
            + " already inherits")
        .inFile(source)
        .onLineContaining("record Thing(");
    assertThat(compilation)
        .hadErrorContaining("[esgen:column-constant-clash] foo_bar and fooBar would both be the constant FOO_BAR of"
            + " Outer_ThingRepository.IndexColumns")
        .inFile(source)
        .onLineContaining("record Thing(");
    assertThat(compilation).hadErrorCount(5);
  }

  @Test
  void handlersAndCreatorsDoNotThrowCheckedExceptions() {
    JavaFileObject source = rule("HandlersThrowingCheckedExceptions");
    Compilation compilation = compile(source);
    assertThat(compilation)
        .hadErrorContaining("[esgen:handler-throws] open(TicketOpened) declares checked exception java.io.IOException,"
            + " which the generated replay cannot pass on: handlers must not throw checked exceptions")
        .inFile(source)
        .onLineContaining("static Ticket open(TicketOpened e)");
    assertThat(compilation)
        .hadErrorContaining("[esgen:handler-throws] apply(TicketClosed) declares checked exception java.lang.Exception")
        .inFile(source)
        .onLineContaining("Ticket apply(TicketClosed e)");
    assertThat(compilation).hadErrorCount(2);
  }

  @Test
  void aLookupDoesNotReuseAnInheritedRepositoryMethod() {
    JavaFileObject source = rule("LookupClash");
    Compilation compilation = compile(source);
    assertThat(compilation)
        .hadErrorContaining("[esgen:lookup-clash] @Unique id would generate findById, which TicketRepository already"
            + " inherits from EventSourcedRepository: rename the component")
        .inFile(source)
        .onLineContaining("record Ticket(");
    assertThat(compilation).hadErrorCount(1);
  }

  @Test
  void twoColumnsMustNotShareAConstant() {
    JavaFileObject source = rule("ColumnConstantClash");
    Compilation compilation = compile(source);
    assertThat(compilation)
        .hadErrorContaining("[esgen:column-constant-clash] foo_bar and fooBar would both be the constant FOO_BAR of"
            + " TicketRepository.IndexColumns: rename one of them")
        .inFile(source)
        .onLineContaining("record Ticket(");
    assertThat(compilation).hadErrorCount(1);
  }

  @Test
  void twoColumnsMustNotShareTheirMethodNames() {
    JavaFileObject source = rule("ColumnMethodClash");
    Compilation compilation = compile(source);
    assertThat(compilation)
        .hadErrorContaining("[esgen:column-method-clash] URL and uRL would both generate findByURL in TicketRepository,"
            + " as lookups are named after the component with its first letter capitalised: rename one of them (keep"
            + " its stored name with column = \"url2\")")
        .inFile(source)
        .onLineContaining("record Ticket(");
    assertThat(compilation).hadErrorCount(1);
  }

  /** In a named package the generated code writes such a type's qualified name; the unnamed package has none. */
  @Test
  void inTheUnnamedPackageNoTypeTheRepositoryUsesIsNamedLikeOneOfItsNestedClasses() {
    JavaFileObject source = rule("UnnamedPackageClash");
    Compilation compilation = compile(source);
    assertThat(compilation)
        .hadErrorContaining("[esgen:unnamed-package-clash] Keys is in the unnamed package, where the generated"
            + " CartRepository.Keys hides it from the code generated for Cart, and a type there has no qualified name"
            + " to reach it by: rename Keys, or move the domain into a named package")
        .inFile(source)
        .onLineContaining("record Keys(");
    assertThat(compilation)
        .hadErrorContaining("[esgen:unnamed-package-clash] Replay is in the unnamed package")
        .inFile(source)
        .onLineContaining("record Replay(");
    assertThat(compilation).hadErrorCount(2);
  }

  @Test
  void eventsHaveNoTypeParameters() {
    JavaFileObject source = rule("GenericEvent");
    Compilation compilation = compile(source);
    assertThat(compilation)
        .hadErrorContaining("[esgen:event-generic] NoteChanged has type parameters: a stored event is read back"
            + " without them")
        .inFile(source)
        .onLineContaining("record NoteChanged<T>");
  }

  @Test
  void aSealedLevelHasNoTypeParametersEitherAndIsToldSoAsALevel() {
    JavaFileObject source = rule("GenericSealedLevel");
    Compilation compilation = compile(source);
    assertThat(compilation)
        .hadErrorContaining("[esgen:event-generic] sealed level NoteEdit has type parameters, which esgen does not"
            + " support on event types")
        .inFile(source)
        .onLineContaining("sealed interface NoteEdit<T>");
    assertThat(compilation).hadErrorCount(1);
  }

  /** An event whose {@code implements} was forgotten: its stored name would never be used. */
  @Test
  void anEventTypeBelowNoRootIsAnError() {
    JavaFileObject source = rule("EventTypeOutsideEvents");
    Compilation compilation = compile(source);
    assertThat(compilation)
        .hadErrorContaining("[esgen:annotation-without-effect] @EventType on NoteArchived has no effect:"
            + " NoteArchived extends or implements no sealed type")
        .inFile(source)
        .onLineContaining("@EventType(\"note-archived\")");
    assertThat(compilation).hadErrorCount(1);

    // A root javac cannot resolve (its import missing, or generated later) is javac's to report.
    JavaFileObject unresolved = rule("UnimportedEventsRoot");
    Compilation withoutRoot = compile(unresolved);
    assertThat(withoutRoot).hadErrorContaining("cannot find symbol").inFile(unresolved).onLineContaining("NoteEvent");
    assertThat(withoutRoot).hadErrorCount(1);
  }

  /** An event whose root lacks {@code @DomainEvents}: no aggregate can have it among its events. */
  @Test
  void anEventTypeBelowSealedTypesWithoutARootIsAnError() {
    JavaFileObject source = rule("EventTypeBelowNoRoot");
    Compilation compilation = compile(source);
    assertThat(compilation)
        .hadErrorContaining("[esgen:annotation-without-effect] @EventType on NoteArchived has no effect: the sealed"
            + " types it extends or implements (ArchiveEvent at the top) are below no @DomainEvents root")
        .inFile(source)
        .onLineContaining("@EventType(\"note-archived\")");
    assertThat(compilation).hadErrorCount(1);

    // Where an aggregate names such a type as its events, its own error says so, once.
    JavaFileObject named = rule("EventsWithoutDomainEvents");
    Compilation namedCompilation = compile(named);
    assertThat(namedCompilation).hadErrorContaining("[esgen:events-not-domain-events]");
    assertThat(namedCompilation).hadErrorCount(1);
  }

  @Test
  void aPrivateSealedLevelAHandlerTakesIsRefusedAsALevel() {
    JavaFileObject source = rule("PrivateSealedLevel");
    Compilation compilation = compile(source);
    assertThat(compilation)
        .hadErrorContaining("[esgen:event-not-accessible] sealed level Note.NoteEdit cannot be named by the code"
            + " generated in package fixture for the handlers that take it: it is private")
        .inFile(source)
        .onLineContaining("private sealed interface NoteEdit");
    assertThat(compilation).hadErrorCount(1);
  }

  @Test
  void theEventsRootHasNoTypeParameters() {
    JavaFileObject source = rule("GenericEventsRoot");
    Compilation compilation = compile(source);
    assertThat(compilation)
        .hadErrorContaining("[esgen:event-generic] NoteEvent has type parameters")
        .inFile(source)
        .onLineContaining("sealed interface NoteEvent<T>");
  }

  @Test
  void eventTypeBelongsOnConcreteEvents() {
    JavaFileObject source = rule("EventTypeOnSealedParent");
    Compilation compilation = compile(source);
    assertThat(compilation)
        .hadErrorContaining("[esgen:event-type-on-sealed] @EventType on NoteEdit is ignored: it names concrete events,"
            + " and NoteEdit is a sealed parent; put it on NoteRenamed and NoteMoved")
        .inFile(source)
        .onLineContaining("@EventType(\"note-edit\")");
  }

  @Test
  void eventsIsASealedType() {
    JavaFileObject source = rule("EventsNotAType");
    Compilation compilation = compile(source);
    assertThat(compilation)
        .hadErrorContaining("[esgen:events-not-a-type] Note's events = int.class is not a type that can hold events:"
            + " events must be a sealed interface or class annotated @DomainEvents")
        .inFile(source)
        .onLineContaining("@Aggregate(");
  }

  @Test
  void eventsIsNotAJdkType() {
    JavaFileObject source = rule("EventsOfTheJdk");
    Compilation compilation = compile(source);
    assertThat(compilation)
        .hadErrorContaining("[esgen:events-not-a-type] Thing's events = String.class names a JDK type, which cannot"
            + " be the sealed root of Thing's events: point events at the interface your events implement, declared"
            + " as \"@DomainEvents sealed interface ThingEvent permits ...\", with events = ThingEvent.class")
        .inFile(source)
        .onLineContaining("events = String.class");
    assertThat(compilation).hadErrorCount(1);
  }

  /** The JDK's List is generic too; "remove its type parameters" would be advice nobody can follow. */
  @Test
  void eventsIsAGenericJdkTypeIsOneError() {
    JavaFileObject source = rule("EventsAGenericJdkType");
    Compilation compilation = compile(source);
    assertThat(compilation)
        .hadErrorContaining("[esgen:events-not-a-type] Thing's events = List.class names a JDK type")
        .inFile(source)
        .onLineContaining("events = List.class");
    assertThat(compilation).hadErrorCount(1);
  }

  @Test
  void aGenericIdRecordIsNamedAsTheReason() {
    JavaFileObject source = rule("GenericIdRecord");
    Compilation compilation = compile(source);
    assertThat(compilation)
        .hadErrorContaining("[esgen:id-type] @AggregateId id has type fixture.Key<java.lang.Integer>, a generic record,"
            + " which esgen cannot turn into a key: use String, java.util.UUID, or a record wrapping exactly one of them"
            + " and declaring no type parameters")
        .inFile(source)
        .onLineContaining("record Bin(");
    assertThat(compilation).hadErrorCount(1);
  }

  @Test
  void eventsIsNotATypeOfAJdkModule() {
    JavaFileObject source = rule("EventsOfAJdkModule");
    Compilation compilation = compile(source);
    assertThat(compilation)
        .hadErrorContaining("[esgen:events-not-a-type] Thing's events = Event.class names a JDK type, which cannot"
            + " be the sealed root of Thing's events")
        .inFile(source)
        .onLineContaining("events = jdk.jfr.Event.class");
  }

  @Test
  void eventsIsNotARecord() {
    JavaFileObject source = rule("EventsARecord");
    Compilation compilation = compile(source);
    assertThat(compilation)
        .hadErrorContaining("[esgen:events-not-a-type] Thing's events = ThingOpened.class names a record, which"
            + " cannot be the sealed root of Thing's events")
        .inFile(source)
        .onLineContaining("events = ThingOpened.class");
    assertThat(compilation).hadErrorCount(1);
  }

  @Test
  void aMissingEventsTypeIsNamedAsSuch() {
    JavaFileObject source = rule("MissingEventsType");
    Compilation compilation = compile(source);
    assertThat(compilation)
        .hadErrorContaining("[esgen:unresolved-type] esgen did not generate code for Note because the events type"
            + " could not be resolved")
        .inFile(source)
        .onLineContaining("record Note(");
  }

  /**
   * An esgen annotation written without its import is javac's error alone: judged without it, the
   * aggregate would draw an esgen error asking for the annotation that is there. What esgen adds is why
   * the repository is missing, on the aggregate.
   */
  @ParameterizedTest
  @CsvSource({
      "UnimportedAggregateId, @AggregateId, record Note(",
      "UnimportedDomainEvents, @DomainEvents, @DomainEvents",
      "UnimportedUpcast, @Upcast, @Upcast(from = 1)"})
  void anAnnotationWithoutItsImportIsLeftToJavac(String rule, String annotation, String line) {
    JavaFileObject source = rule(rule);
    Compilation compilation = compile(source);
    assertThat(compilation).hadErrorContaining("cannot find symbol").inFile(source).onLineContaining(line);
    assertThat(compilation)
        .hadErrorContaining("[esgen:unresolved-type] esgen did not generate code for Note because " + annotation
            + " could not be resolved: fix the errors above first")
        .inFile(source)
        .onLineContaining("record Note(");
    assertThat(compilation).hadErrorCount(2);
  }

  /** Without @Aggregate's import its components' annotations are not told to go: javac's error is the one. */
  @Test
  void anAggregateWithoutTheImportOfAggregateIsJavacsErrorAlone() {
    JavaFileObject source = rule("UnimportedAggregate");
    Compilation compilation = compile(source);
    assertThat(compilation).hadErrorContaining("cannot find symbol").inFile(source).onLineContaining("@Aggregate(");
    assertThat(compilation).hadErrorCount(1);
  }

  /** One mistake, one error: events that two aggregates share are checked for each, and reported once. */
  @Test
  void mistakesInEventsTwoAggregatesShareAreReportedOnce() {
    JavaFileObject source = rule("SharedEventsWithMistakes");
    Compilation compilation = compile(source);
    assertThat(compilation)
        .hadErrorContaining("[esgen:duplicate-event-type] event NoteEdited is stored as \"note-changed\"")
        .inFile(source)
        .onLine(39);
    assertThat(compilation).hadErrorContaining("[esgen:json-abstract-type] component onOpen of event NoteOpened");
    assertThat(compilation).hadErrorCount(2);
  }

  @Test
  void enumsCannotBeEvents() {
    JavaFileObject source = rule("EnumEvent");
    Compilation compilation = compile(source);
    assertThat(compilation)
        .hadErrorContaining("[esgen:event-enum] NoteFlag is an enum, and enums cannot be events")
        .inFile(source)
        .onLineContaining("enum NoteFlag");
    // Its handler is no second mistake.
    assertThat(compilation).hadErrorCount(1);
  }

  @Test
  void twoAggregatesGeneratingOneNameAreToldWhy() {
    JavaFileObject source = rule("GeneratedNameClash");
    Compilation compilation = compile(source);
    assertThat(compilation)
        .hadErrorContaining("[esgen:write-failed] could not write fixture.Outer_ARepository")
        .inFile(source)
        .onLineContaining("record Outer_A(");
    assertThat(compilation).hadErrorContaining("another aggregate may produce the same name");
  }

  @Test
  void aClassDeclaredUnderTheGeneratedNameIsOneErrorOnTheAggregate() {
    JavaFileObject source = rule("RepositoryNameTaken");
    Compilation compilation = compile(source);
    assertThat(compilation)
        .hadErrorContaining("[esgen:write-failed] could not write fixture.NoteRepository for Note: a class of that"
            + " name is declared in this compilation")
        .inFile(source)
        .onLineContaining("record Note(");
    assertThat(compilation).hadErrorCount(1);
    assertTrue(compilation.warnings().stream().noneMatch(w -> w.getMessage(null).contains("multiple times")),
        compilation.warnings().toString());
  }

  @Test
  void aggregateOptionsAreChecked() {
    JavaFileObject source = rule("InvalidOptions");
    Compilation compilation = compile(source);
    assertThat(compilation)
        .hadErrorContaining("[esgen:invalid-name] aggregate name \"Bank_Account\" must match [a-z0-9]+(-[a-z0-9]+)*")
        .inFile(source)
        .onLineContaining("name = \"Bank_Account\"");
    assertThat(compilation)
        .hadErrorContaining("[esgen:invalid-shards] shards = 0 must be at least 1")
        .inFile(source)
        .onLineContaining("shards = 0");
    assertThat(compilation)
        .hadErrorContaining("[esgen:invalid-snapshot-every] snapshotEvery = 0 must be at least 1 event")
        .inFile(source)
        .onLineContaining("snapshotEvery = 0");
    assertThat(compilation)
        .hadErrorContaining("[esgen:invalid-snapshots-to-keep] snapshotsToKeep = -1 must be 0 or more")
        .inFile(source)
        .onLineContaining("snapshotsToKeep = -1");
    assertThat(compilation)
        .hadErrorContaining("[esgen:invalid-snapshot-ttl] snapshotTtl = \"thirty days\" is not an ISO-8601 duration")
        .inFile(source)
        .onLineContaining("snapshotTtl = \"thirty days\"");
    assertThat(compilation).hadErrorCount(5);
  }

  @Test
  void snapshotTtlMustBePositive() {
    JavaFileObject source = rule("NonPositiveTtl");
    Compilation compilation = compile(source);
    assertThat(compilation)
        .hadErrorContaining("[esgen:invalid-snapshot-ttl] snapshotTtl = \"PT0S\" is not positive")
        .inFile(source)
        .onLineContaining("snapshotTtl = \"PT0S\"");
  }

  @Test
  void aSnapshotTtlBeyondAHundredYearsIsAnError() throws IOException {
    // The same aggregate as NonPositiveTtl, with another TTL.
    JavaFileObject source = JavaFileObjects.forSourceString("fixture.BankAccount",
        rule("NonPositiveTtl").getCharContent(true).toString().replace("\"PT0S\"", "\"P36501D\""));
    Compilation compilation = compile(source);
    assertThat(compilation)
        .hadErrorContaining("[esgen:invalid-snapshot-ttl] snapshotTtl = \"P36501D\" is longer than 36,500 days")
        .inFile(source)
        .onLineContaining("snapshotTtl = \"P36501D\"");
    assertThat(compilation).hadErrorCount(1);
  }

  @Test
  void aSnapshotTtlInYearsOrMonthsIsToldToUseDays() throws IOException {
    for (String ttl : List.of("P1Y", "P6M", "P2W")) {
      JavaFileObject source = JavaFileObjects.forSourceString("fixture.BankAccount",
          rule("NonPositiveTtl").getCharContent(true).toString().replace("\"PT0S\"", "\"" + ttl + "\""));
      Compilation compilation = compile(source);
      assertThat(compilation)
          .hadErrorContaining("[esgen:invalid-snapshot-ttl] snapshotTtl = \"" + ttl
              + "\" counts years, months or weeks, which a duration cannot hold: use a positive ISO-8601 duration")
          .inFile(source)
          .onLineContaining("snapshotTtl = \"" + ttl + "\"");
      assertThat(compilation).hadErrorCount(1);
    }
  }

  @Test
  void tipOptionsAreCheckedAndBelongToTheirLayout() {
    JavaFileObject source = rule("TipOptions");
    Compilation compilation = compile(source);
    assertThat(compilation)
        .hadErrorContaining("[esgen:invalid-tip-max-bytes] tipMaxBytes = 500000 must be between 1 and 409600")
        .inFile(source)
        .onLineContaining("tipMaxBytes = 500000");
    assertThat(compilation)
        .hadErrorContaining("[esgen:invalid-tip-max-events] tipMaxEvents = -1 must be 0 (no limit) or more")
        .inFile(source)
        .onLineContaining("tipMaxEvents = -1");
    assertThat(compilation)
        .hadErrorContaining("[esgen:journal-option-on-tip] snapshotsToKeep applies to the journal layout only")
        .inFile(source)
        .onLineContaining("snapshotsToKeep = 2");
    assertThat(compilation)
        .hadErrorContaining(
            "[esgen:tip-option-on-journal] tipSnapshot applies to the tip layout only: add \"layout = Layout.TIP\"")
        .inFile(source)
        .onLineContaining("tipSnapshot = false");
    assertEquals(4, compilation.errors().size(), compilation.errors().toString());
  }

  @Test
  void aggregateNamesAreUniqueInACompilation() {
    JavaFileObject source = rule("DuplicateAggregateName");
    Compilation compilation = compile(source);
    assertThat(compilation)
        .hadErrorContaining(
            "[esgen:duplicate-aggregate-name] aggregate name \"bank-account\" of fixture.SavingsAccount is already"
                + " used by fixture.BankAccount")
        .inFile(source)
        .onLineContaining("// the second one");
    assertThat(compilation).hadErrorCount(1);
  }

  @Test
  void theIdIsNeitherIndexedNorUnique() {
    JavaFileObject source = rule("IndexedId");
    Compilation compilation = compile(source);
    assertThat(compilation)
        .hadErrorContaining("[esgen:indexed-id] @Unique on @AggregateId id is not needed")
        .inFile(source)
        .onLineContaining("@AggregateId @Unique AccountId id");
    assertThat(compilation).hadErrorCount(1);
  }

  @Test
  void theIdIsNotIndexedEither() {
    JavaFileObject source = rule("IndexedOnId");
    Compilation compilation = compile(source);
    assertThat(compilation)
        .hadErrorContaining("[esgen:indexed-id] @Indexed on @AggregateId id is not needed")
        .inFile(source)
        .onLineContaining("@AggregateId @Indexed AccountId id");
    assertThat(compilation).hadErrorCount(1);
  }

  @Test
  void indexColumnTypesAreLimitedToThoseWithAStoredForm() {
    JavaFileObject source = rule("UnsupportedColumnType");
    Compilation compilation = compile(source);
    assertThat(compilation)
        .hadErrorContaining("[esgen:column-type] @Indexed tags has type java.util.List<java.lang.String>, which esgen"
            + " cannot index: use String, a primitive other than char or its box, BigInteger, BigDecimal, an enum,"
            + " UUID, Instant, LocalDate, or a record with exactly one component")
        .inFile(source)
        .onLineContaining("@Indexed List<String> tags");
    assertThat(compilation)
        .hadErrorContaining("[esgen:column-type] @Unique email has type java.lang.Object")
        .inFile(source)
        .onLineContaining("@Unique Object email");
    assertThat(compilation).hadErrorCount(2);
  }

  @Test
  void idAndColumnAnnotationsWhereEsgenDoesNotReadThemAreErrors() {
    JavaFileObject source = rule("MisplacedColumnAnnotations");
    Compilation compilation = compile(source);
    assertThat(compilation)
        .hadErrorContaining("[esgen:annotation-without-effect] @AggregateId on component id of MemberJoined has no"
            + " effect: esgen reads it on the components of an @Aggregate type only, and MemberJoined is an event (an"
            + " aggregate's id and columns are read from its state); remove it, or put it on the aggregate's component")
        .inFile(source)
        .onLineContaining("record MemberJoined(");
    assertThat(compilation)
        .hadErrorContaining("[esgen:annotation-without-effect] @Unique on component email of MemberJoined has no effect")
        .inFile(source)
        .onLineContaining("record MemberJoined(");
    assertThat(compilation)
        .hadErrorContaining("[esgen:annotation-without-effect] @Indexed on component city of Address has no effect:"
            + " esgen reads it on the components of an @Aggregate type only, and Address is not annotated @Aggregate")
        .inFile(source)
        .onLineContaining("record Address(");
    assertThat(compilation)
        .hadErrorContaining("[esgen:annotation-without-effect] @Indexed on static field defaultHolder of Card has no"
            + " effect: a static field is no part of the aggregate's state")
        .inFile(source)
        .onLineContaining("@Indexed static String defaultHolder");
    assertThat(compilation)
        .hadErrorContaining("[esgen:annotation-without-effect] @Unique on parameter number of a constructor of Card"
            + " has no effect")
        .inFile(source)
        .onLineContaining("Card(@Unique String number)");
    // The aggregate's own components, and the constructor parameters javac copies them to, are no mistake.
    assertThat(compilation).hadErrorCount(5);
  }

  /** An enum constant is a field to javac, and as much a place where esgen never reads them. */
  @Test
  void idAndColumnAnnotationsOnEnumConstantsAreErrors() {
    JavaFileObject source = rule("AnnotatedEnumConstants");
    Compilation compilation = compile(source);
    assertThat(compilation)
        .hadErrorContaining("[esgen:annotation-without-effect] @Indexed on constant RED of enum Color has no effect:"
            + " esgen reads it on the components (or instance fields) of an @Aggregate type only; remove it, or put it"
            + " on the aggregate's component that holds a Color")
        .inFile(source)
        .onLineContaining("@Indexed RED");
    assertThat(compilation)
        .hadErrorContaining("[esgen:annotation-without-effect] @Unique on constant GREEN of enum Color")
        .inFile(source)
        .onLineContaining("@Unique GREEN");
    assertThat(compilation)
        .hadErrorContaining("[esgen:annotation-without-effect] @AggregateId on constant BLUE of enum Color")
        .inFile(source)
        .onLineContaining("@AggregateId BLUE");
    assertThat(compilation).hadErrorCount(3);
  }

  /** The generated code names the id and column types as declared: a raw one would be a rawtypes warning there. */
  @Test
  void idAndColumnTypesAreNotRaw() {
    JavaFileObject source = rule("RawIdAndColumn");
    Compilation compilation = compile(source);
    assertThat(compilation)
        .hadErrorContaining("[esgen:raw-type] @AggregateId id has the raw type Tagged, which declares type parameter"
            + " T: generated code naming it without type arguments compiles with [rawtypes] warnings, and with them it"
            + " is no id type esgen supports; remove the type parameters from Tagged, or use a non-generic type")
        .inFile(source)
        .onLineContaining("@AggregateId Tagged id");
    assertThat(compilation)
        .hadErrorContaining("[esgen:raw-type] @Indexed sender has the raw type Tagged")
        .inFile(source)
        .onLineContaining("@Indexed Tagged sender");
    assertThat(compilation).hadErrorCount(2);
  }

  @Test
  void aColumnIsIndexedOrUniqueNotBoth() {
    JavaFileObject source = rule("IndexedAndUnique");
    Compilation compilation = compile(source);
    assertThat(compilation)
        .hadErrorContaining("[esgen:indexed-and-unique] email is both @Indexed and @Unique: @Unique alone already")
        .inFile(source)
        .onLineContaining("@Indexed @Unique String email");
    assertThat(compilation).hadErrorCount(1);
  }

  /**
   * One global secondary index per @Indexed column, at most 20 per table, one of them the tip table's
   * listing index: the first column past the layout's limit is the error, @Unique columns do not count.
   */
  @Test
  void noMoreIndexedColumnsThanTheLayoutsTableCanIndex() {
    JavaFileObject journal = wide(21, "");
    Compilation onJournal = compile(journal);
    assertThat(onJournal)
        .hadErrorContaining("[esgen:too-many-indexed] Wide has 21 @Indexed columns, c21 being number 21, but a"
            + " DynamoDB table has at most 20 global secondary indexes, one per @Indexed column: make some of them"
            + " plain components, or @Unique")
        .inFile(journal)
        .onLineContaining("@Indexed String c21");
    assertThat(onJournal).hadErrorCount(1);

    JavaFileObject tip = wide(20, ", layout = Layout.TIP");
    Compilation onTip = compile(tip);
    assertThat(onTip)
        .hadErrorContaining("[esgen:too-many-indexed] Wide has 20 @Indexed columns, c20 being number 20, but a"
            + " DynamoDB table has at most 20 global secondary indexes, one per @Indexed column, and the tip"
            + " table's listing index takes one of them, so the tip layout allows 19")
        .inFile(tip)
        .onLineContaining("@Indexed String c20");
    assertThat(onTip).hadErrorCount(1);
  }

  /**
   * An aggregate with {@code indexed} @Indexed String columns c1, c2, ..., and one @Unique column, which
   * does not count; {@code options} follow the events in its @Aggregate.
   */
  private static JavaFileObject wide(int indexed, String options) {
    StringBuilder components = new StringBuilder();
    for (int i = 1; i <= indexed; i++) {
      components.append(",\n    @Indexed String c").append(i);
    }
    String nulls = String.join(", ", Collections.nCopies(indexed + 1, "null"));
    return JavaFileObjects.forSourceString("fixture.Wide", """
        package fixture;

        import dev.esgen.annotations.Aggregate;
        import dev.esgen.annotations.AggregateId;
        import dev.esgen.annotations.DomainEvents;
        import dev.esgen.annotations.Indexed;
        import dev.esgen.annotations.Layout;
        import dev.esgen.annotations.Unique;
        import java.util.UUID;

        @DomainEvents
        sealed interface WideEvent permits WideCreated {}

        record WideCreated(WideId id) implements WideEvent {}

        record WideId(UUID value) {}

        @Aggregate(name = "wide", events = WideEvent.class%s)
        record Wide(
            @AggregateId WideId id,
            @Unique String code%s) {
          static Wide create(WideCreated e) {
            return new Wide(e.id(), %s);
          }
        }
        """.formatted(options, components, nulls));
  }

  /** The processor's limit is the runtime's, which AggregateDefinition enforces for hand-built definitions. */
  @Test
  void theIndexedColumnLimitIsTheRuntimes() {
    assertEquals(IndexKeys.MAX_SLOTS, ColumnAnalyzer.MAX_INDEXED);
    assertEquals(IndexKeys.maxSlots(LayoutKind.TIP), ColumnAnalyzer.MAX_INDEXED - 1);
  }

  @Test
  void twoColumnsMustNotShareAStoredName() {
    JavaFileObject source = rule("DuplicateColumn");
    Compilation compilation = compile(source);
    assertThat(compilation)
        .hadErrorContaining("[esgen:duplicate-column] email is stored as column \"mail\", like owner: give one of"
            + " them a distinct column = \"...\"")
        .inFile(source)
        .onLineContaining("@Unique(column = \"mail\") String email");
    assertThat(compilation).hadErrorCount(1);
  }

  @Test
  void aStoredColumnNameIsKeySafe() {
    JavaFileObject source = rule("InvalidColumnName");
    Compilation compilation = compile(source);
    assertThat(compilation)
        .hadErrorContaining("[esgen:invalid-column-name] column = \"e#mail\" must be ASCII letters, digits, '_', '.'"
            + " or '-'")
        .inFile(source)
        .onLineContaining("@Unique(column = \"e#mail\") String email");
    assertThat(compilation).hadErrorCount(1);
  }

  @Test
  void oneBrokenAggregateDoesNotStopAnother(@TempDir Path generated) throws IOException {
    JavaFileObject source = rule("OneBrokenOneValid");
    Compilation compilation = compile(source);
    assertThat(compilation)
        .hadErrorContaining("[esgen:no-handler] event AccountClosed has no handler")
        .inFile(source)
        .onLineContaining("@Aggregate(name = \"bank-account\"");
    assertThat(compilation).hadErrorCount(1);

    // compile-testing hides generated files of a failed compilation, so look at what javac wrote.
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    try (StandardJavaFileManager files = javac.getStandardFileManager(null, null, null)) {
      JavaCompiler.CompilationTask task =
          javac.getTask(
              null, files, diagnostic -> {}, List.of("-proc:only", "-s", generated.toString()), null, List.of(source));
      task.setProcessors(List.of(new EsgenProcessor()));
      task.call();
    }
    try (Stream<Path> written = Files.list(generated.resolve("fixture"))) {
      assertEquals(
          List.of("SavingsAccountRepository.java"),
          written.map(p -> p.getFileName().toString()).sorted().toList());
    }
  }
}
