package dev.esgen.processor;

import static com.google.testing.compile.CompilationSubject.assertThat;
import static com.google.testing.compile.Compiler.javac;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.google.testing.compile.Compilation;
import com.google.testing.compile.JavaFileObjects;
import javax.tools.Diagnostic;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.Test;

/**
 * One test per check of event versions, aliases, upcasters and {@code snapshotVersion}: the message, the
 * file and the line it lands on, and that the mistake is reported once. Each fixture under
 * {@code src/test/resources/evolution} is a whole small domain with one mistake.
 */
class EvolutionValidationTest {

  private static JavaFileObject fixture(String name) {
    return JavaFileObjects.forResource("evolution/" + name + ".java");
  }

  private static Compilation compile(JavaFileObject... sources) {
    return javac().withProcessors(new EsgenProcessor()).withOptions("-Xlint:all").compile(sources);
  }

  /** Compiles the fixture and checks that it fails with exactly this one error on this line. */
  private static void assertOneError(String name, String message, String line) {
    JavaFileObject source = fixture(name);
    Compilation compilation = compile(source);
    assertThat(compilation).hadErrorContaining(message).inFile(source).onLineContaining(line);
    assertThat(compilation).hadErrorCount(1);
  }

  /** The fixture keeps its whole domain in one file, which {@code auxiliaryclass} would warn about. */
  @Test
  void aDomainUsingEveryEvolutionFeatureCompilesWithoutWarnings() {
    Compilation compilation = javac().withProcessors(new EsgenProcessor())
        .withOptions("-Xlint:all,-processing,-auxiliaryclass", "-Werror")
        .compile(fixture("Evolved"));
    assertThat(compilation).succeededWithoutWarnings();
    assertThat(compilation).generatedSourceFile("fixture.BankAccountRepository").contentsAsUtf8String()
        .contains("case \"account-created\":");
  }

  @Test
  void anEventVersionStartsAtOne() {
    assertOneError("InvalidEventVersion",
        "[esgen:invalid-event-version] @EventType(version = 0) on MoneyDeposited must be 1 or more",
        "version = 0");
  }

  @Test
  void theUpcastersOfAnEventWithABlankNameAddNoErrorOfTheirOwn() {
    assertOneError("BlankNameWithUpcaster",
        "[esgen:blank-event-type] @EventType on MoneyDeposited is blank", "@EventType(value = \" \", version = 2)");
  }

  @Test
  void anAliasMustNotBeBlank() {
    assertOneError("BlankAlias", "[esgen:blank-alias] an alias of AccountClosed is blank", "aliases = \" \"");
  }

  @Test
  void anAliasMustNotBeAnotherEventsName() {
    assertOneError("AliasClash",
        "[esgen:alias-clash] alias \"money-deposited\" of AccountClosed is the stored name of MoneyDeposited: a"
            + " stored name must lead to exactly one event type; remove it from AccountClosed's aliases",
        "aliases = \"money-deposited\"");
  }

  @Test
  void anAliasMustNotBeAnotherEventsAlias() {
    assertOneError("AliasTwice",
        "[esgen:alias-clash] alias \"account-created\" of AccountClosed is also an alias of AccountOpened",
        "\"account-ended\", \"account-created\"");
  }

  @Test
  void anUpcasterIsStatic() {
    assertOneError("UpcastNotStatic",
        "[esgen:upcast-signature] upcaster MoneyDeposited.centsFromEuros is not static: an upcaster is a static,"
            + " non-private method taking the stored JSON, such as \"static ObjectNode centsFromEuros(ObjectNode json)\"",
        "ObjectNode centsFromEuros(ObjectNode v1)");
  }

  @Test
  void anUpcasterTakesAnObjectNode() {
    assertOneError("UpcastTakesJsonNode",
        "[esgen:upcast-signature] upcaster MoneyDeposited.centsFromEuros takes (com.fasterxml.jackson.databind.JsonNode)",
        "static ObjectNode centsFromEuros(JsonNode v1)");
  }

  /**
   * An upcaster whose ObjectNode javac cannot resolve (its import forgotten) is javac's error: esgen says it
   * could not generate the aggregate rather than that the method takes the wrong type, naming the one it takes.
   */
  @Test
  void anUpcasterWhoseSignatureDoesNotResolveIsLeftToJavac() {
    JavaFileObject source = fixture("UpcastWithoutImport");
    Compilation compilation = compile(source);
    assertThat(compilation)
        .hadErrorContaining("[esgen:unresolved-type] esgen did not generate code for BankAccount because ObjectNode"
            + " could not be resolved")
        .inFile(source)
        .onLineContaining("record BankAccount(");
    assertThat(compilation).hadErrorContaining("cannot find symbol").inFile(source)
        .onLineContaining("static ObjectNode centsFromEuros(ObjectNode v1)");
    for (Diagnostic<?> error : compilation.errors()) {
      assertFalse(error.getMessage(null).contains("[esgen:upcast-signature]"), error.getMessage(null));
    }
  }

  @Test
  void anUpcasterReturnsJsonOrEvents() {
    assertOneError("UpcastReturnsString",
        "[esgen:upcast-signature] upcaster MoneyDeposited.centsFromEuros returns java.lang.String, which is neither"
            + " ObjectNode nor an event of AccountEvent nor a List of them",
        "static String centsFromEuros");
  }

  @Test
  void anUpcasterThrowsNoCheckedExceptionButIOException() {
    assertOneError("UpcastThrowsChecked",
        "[esgen:upcast-signature] upcaster MoneyDeposited.centsFromEuros declares checked exception"
            + " java.lang.Exception, which the codec cannot pass on (IOException can)",
        "throws Exception");
  }

  @Test
  void anUpcasterIsNotPrivate() {
    assertOneError("UpcastPrivate",
        "[esgen:upcast-signature] upcaster MoneyDeposited.centsFromEuros is private, and the generated codec calls it",
        "private static ObjectNode centsFromEuros");
  }

  @Test
  void anUpcasterOutsideAnEventClassNamesItsType() {
    assertOneError("UpcastTypeMissing",
        "[esgen:upcast-type-missing] upcaster AccountUpcasters.split in AccountUpcasters does not say which stored"
            + " type it reads: add type = \"...\"",
        "@Upcast(from = 1)");
  }

  /** No event is stored under a blank name, so such an upcaster would never run. */
  @Test
  void anUpcastersTypeIsNotBlank() {
    assertOneError("UpcastTypeBlank",
        "[esgen:upcast-type-missing] upcaster AccountUpcasters.split in AccountUpcasters reads a blank type,"
            + " which no event is stored under: write the @EventType name of the type it reads",
        "@Upcast(type = \" \", from = 1)");
  }

  @Test
  void anUpcasterReadsATypeByItsNameNotByAnAlias() {
    assertOneError("UpcastAlias",
        "[esgen:upcast-alias] upcaster AccountUpcasters.terminated reads type \"account-terminated\", an alias of"
            + " AccountClosed: events stored under an alias share AccountClosed's versions, so write type ="
            + " \"account-closed\"",
        "type = \"account-terminated\"");
  }

  @Test
  void storedVersionsStartAtOne() {
    assertOneError("UpcastVersionZero",
        "[esgen:upcast-version] upcaster MoneyDeposited.centsFromEuros reads version 0, which no event has",
        "@Upcast(from = 0)");
  }

  @Test
  void noUpcasterReadsTheCurrentVersion() {
    assertOneError("UpcastVersionNotStored",
        "[esgen:upcast-version] upcaster MoneyDeposited.sameAgain reads version 2 of MoneyDeposited, but"
            + " MoneyDeposited is at version 2",
        "@Upcast(from = 2)");
  }

  /** No version follows 2147483647: the advice is not a version that overflows to a negative one. */
  @Test
  void anUpcasterReadingTheLargestVersionIsToldToGo() {
    assertOneError("LastVersionNotStored",
        "[esgen:upcast-version] upcaster MoneyDeposited.last reads version 2147483647 of MoneyDeposited, but"
            + " MoneyDeposited is at version 1, so every stored one is at version 1 or below and version 1 is read"
            + " as it is: no version follows 2147483647, the largest int; remove this upcaster",
        "@Upcast(from = 2147483647)");
  }

  @Test
  void oneUpcasterPerStoredVersion() {
    assertOneError("DuplicateUpcast",
        "[esgen:duplicate-upcast] upcaster MoneyDeposited.centsFromEurosAgain reads version 1 of \"money-deposited\","
            + " like MoneyDeposited.centsFromEuros: one upcaster per stored version; remove one of them",
        "@Upcast(type = \"money-deposited\", from = 1)");
  }

  @Test
  void everyStoredVersionBelowTheCurrentOneHasAnUpcaster() {
    assertOneError("UpcastGap",
        "[esgen:upcast-gap] MoneyDeposited is at version 3, but no upcaster reads stored version 1, so such events"
            + " could not be read: add \"@Upcast(from = 1) static ObjectNode fromVersion1(ObjectNode v1)\" to"
            + " MoneyDeposited",
        "version = 3");
  }

  @Test
  void aRetiredTypesVersionsHaveNoGap() {
    assertOneError("RetiredGap",
        "[esgen:upcast-gap] no upcaster reads version 2 of the retired type \"transfer-booked\", while one reads a"
            + " later version: add \"@Upcast(type = \"transfer-booked\", from = 2)\"",
        "from = 3");
  }

  /** A version is any int: the missing ones are named as a range, not counted out one by one. */
  @Test
  void aHugeEventVersionNamesItsMissingVersionsAsARange() {
    assertOneError("HugeEventVersion",
        "[esgen:upcast-gap] MoneyDeposited is at version 20240115, but no upcaster reads stored versions 1 to"
            + " 20240113, so such events could not be read: add \"@Upcast(from = 1) static ObjectNode"
            + " fromVersion1(ObjectNode v1)\" to MoneyDeposited",
        "version = 20240115");
  }

  @Test
  void aHugeRetiredVersionNamesItsMissingVersionsAsARange() {
    assertOneError("HugeRetiredVersion",
        "[esgen:upcast-gap] no upcaster reads versions 2 to 20240114 of the retired type \"transfer-booked\", while"
            + " one reads a later version: add \"@Upcast(type = \"transfer-booked\", from = 2)\"",
        "from = 20240115");
  }

  @Test
  void aRetiredTypesLastUpcasterReturnsEvents() {
    assertOneError("RetiredDeadEnd",
        "[esgen:upcast-dead-end] upcaster AccountUpcasters.transferV1 turns version 1 of \"transfer-booked\" into the"
            + " JSON of version 2, which no upcaster reads",
        "static ObjectNode transferV1");
  }

  @Test
  void aDeadEndAtTheLargestVersionNamesNoVersionAfterIt() {
    JavaFileObject source = fixture("LastVersionDeadEnd");
    Compilation compilation = compile(source);
    assertThat(compilation)
        .hadErrorContaining("[esgen:upcast-dead-end] upcaster AccountUpcasters.transferLast turns version 2147483647"
            + " of \"transfer-booked\" into JSON of a next version, and no version follows 2147483647, the largest"
            + " int: return the event it stands for now, or a List of them")
        .inFile(source)
        .onLineContaining("static ObjectNode transferLast");
    // and the gap below it, versions 1 to 2147483646
    assertThat(compilation).hadErrorContaining("[esgen:upcast-gap]");
    assertThat(compilation).hadErrorCount(2);
  }

  @Test
  void anUpcasterWhereEsgenDoesNotLookIsReported() {
    assertOneError("UpcastIgnored",
        "[esgen:upcast-ignored] upcaster AccountEvent.transfer in AccountEvent is never called: esgen looks for"
            + " upcasters in the event classes and in the classes of @DomainEvents(upcasters = ...)",
        "@Upcast(type = \"transfer-booked\", from = 1)");
  }

  /** Listing an event class, or the root, or one class twice, makes no upcaster a duplicate of itself. */
  @Test
  void aClassListedAsUpcastersThatEsgenReadsAnywayCountsOnce() {
    Compilation compilation = compile(fixture("ListedEventsAndRoot"));
    assertThat(compilation).succeeded();
    assertThat(compilation).generatedSourceFile("fixture.BankAccountRepository").contentsAsUtf8String()
        .contains("json = MoneyDeposited.centsFromEuros(json);");
    assertThat(compilation).generatedSourceFile("fixture.BankAccountRepository").contentsAsUtf8String()
        .contains("AccountEvent.transfer(json)");
  }

  @Test
  void anUpcasterInAClassNoUpcastersListsIsReported() {
    assertOneError("UnlistedUpcasters",
        "[esgen:upcast-ignored] upcaster AccountUpcasters.transfer in AccountUpcasters is never called: esgen looks"
            + " for upcasters in the event classes and in the classes of @DomainEvents(upcasters = ...); move it to"
            + " the event class whose versions it reads, or list its class there",
        "@Upcast(type = \"transfer-booked\", from = 1)");
  }

  /** A primitive, an array or a class without upcasters is listed for nothing: each is an error on its entry. */
  @Test
  void everyListedUpcastersClassDeclaresUpcasters() {
    JavaFileObject source = fixture("ListedWithoutUpcasters");
    Compilation compilation = compile(source);
    assertThat(compilation)
        .hadErrorContaining("[esgen:upcasters-without-upcasters] @DomainEvents(upcasters = ...) on AccountEvent lists"
            + " int, which is no class")
        .inFile(source)
        .onLineContaining("int.class");
    assertThat(compilation)
        .hadErrorContaining("lists java.lang.String[], which is no class")
        .inFile(source)
        .onLineContaining("String[].class");
    assertThat(compilation)
        .hadErrorContaining("lists Object, which declares no @Upcast method")
        .inFile(source)
        .onLineContaining("Object.class");
    assertThat(compilation).hadErrorCount(3);
  }

  @Test
  void anUpcasterInAnotherPackageIsPublic() {
    JavaFileObject source = fixture("UpcastNotAccessible");
    JavaFileObject upcasters = JavaFileObjects.forResource("evolution/other/MoreUpcasters.java");
    Compilation compilation = compile(source, upcasters);
    assertThat(compilation)
        .hadErrorContaining("[esgen:upcast-not-accessible] upcaster MoreUpcasters.centsFromEuros cannot be called"
            + " from package fixture, where the generated codec lives: make MoreUpcasters.centsFromEuros public")
        .inFile(upcasters)
        .onLineContaining("static ObjectNode centsFromEuros");
    assertThat(compilation).hadErrorCount(1);
  }

  @Test
  void theSnapshotVersionStartsAtOne() {
    assertOneError("InvalidSnapshotVersion",
        "[esgen:invalid-snapshot-version] snapshotVersion = 0 must be 1 or more", "snapshotVersion = 0");
  }
}
