package dev.esgen.processor;

import static com.google.testing.compile.CompilationSubject.assertThat;
import static com.google.testing.compile.Compiler.javac;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.testing.compile.Compilation;
import com.google.testing.compile.JavaFileObjects;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.annotation.processing.AbstractProcessor;
import javax.annotation.processing.RoundEnvironment;
import javax.lang.model.SourceVersion;
import javax.lang.model.element.TypeElement;
import javax.tools.Diagnostic;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.Test;

/** What the processor writes for a valid domain, and how it waits for types other processors generate. */
class GenerationTest {

  private static final List<JavaFileObject> BANK =
      List.of(
          JavaFileObjects.forResource("valid/AccountEvent.java"),
          JavaFileObjects.forResource("valid/AccountOpened.java"),
          JavaFileObjects.forResource("valid/MoneyDeposited.java"),
          JavaFileObjects.forResource("valid/AccountClosed.java"),
          JavaFileObjects.forResource("valid/AccountId.java"),
          JavaFileObjects.forResource("valid/BankAccount.java"));

  /**
   * {@code -processing} is left out as in the build: esgen leaves its annotations unclaimed so that other
   * processors can read them too, which that lint category alone reports.
   */
  @Test
  void generatedSourcesCompileWithoutAnyWarning() {
    Compilation compilation =
        javac().withProcessors(new EsgenProcessor()).withOptions("-Xlint:all,-processing", "-Werror").compile(BANK);
    assertThat(compilation).succeededWithoutWarnings();
    assertThat(compilation)
        .generatedSourceFile("fixture.BankAccountRepository")
        .contentsAsUtf8String()
        .contains("@Generated(\"dev.esgen.processor.EsgenProcessor\")");
    for (String nested : List.of("Keys", "EventCodec", "SnapshotCodec", "Replay", "IndexColumns")) {
      assertThat(compilation)
          .generatedSourceFile("fixture.BankAccountRepository")
          .contentsAsUtf8String()
          .contains("public static final class " + nested + " ");
    }
  }

  /**
   * A user steps into these files in a debugger: no line runs past the 120 characters the project's own code
   * keeps to (JavaPoet breaks code at 100 only where a statement allows it with a wrapping space).
   */
  @Test
  void generatedLinesStayWithin120Characters() throws IOException {
    Compilation bank = javac().withProcessors(new EsgenProcessor()).compile(BANK);
    Compilation wallet = javac()
        .withProcessors(new EsgenProcessor())
        .compile(JavaFileObjects.forResource("async/Wallet.java"));
    assertThat(bank).succeeded();
    assertThat(wallet).succeeded();
    List<JavaFileObject> generated = new ArrayList<>(bank.generatedSourceFiles());
    generated.addAll(wallet.generatedSourceFiles());
    assertEquals(3, generated.size(), "the bank's repository and the wallet's two repositories");
    for (JavaFileObject file : generated) {
      List<String> lines = file.getCharContent(false).toString().lines().toList();
      for (int i = 0; i < lines.size(); i++) {
        String message = file.getName() + " line " + (i + 1) + ": " + lines.get(i);
        assertTrue(lines.get(i).length() <= 120, message);
      }
    }
  }

  @Test
  void asyncTrueGeneratesAnAsyncRepositoryThatCompilesWithoutAnyWarning() {
    Compilation compilation = javac()
        .withProcessors(new EsgenProcessor())
        // The fixture keeps its whole domain in one file, which auxiliaryclass would warn about.
        .withOptions("-Xlint:all,-processing,-auxiliaryclass", "-Werror")
        .compile(JavaFileObjects.forResource("async/Wallet.java"));
    assertThat(compilation).succeededWithoutWarnings();
    assertThat(compilation)
        .generatedSourceFile("fixture.WalletAsyncRepository")
        .contentsAsUtf8String()
        .contains("@Generated(\"dev.esgen.processor.EsgenProcessor\")\n"
            + "final class WalletAsyncRepository extends AsyncEventSourcedRepository<Wallet, String, WalletEvent> {");
    assertThat(compilation)
        .generatedSourceFile("fixture.WalletAsyncRepository")
        .contentsAsUtf8String()
        .contains("super(store, WalletRepository.definition(store.objectMapper()));");
    for (String lookup : List.of(
        "public CompletableFuture<Wallet> loadByEmail(String email)",
        "public CompletableFuture<Optional<Wallet>> findByEmail(String email)",
        "public CompletableFuture<Wallet> loadByOwner(String owner)",
        "public CompletableFuture<Optional<Wallet>> findByOwner(String owner)",
        "public CompletableFuture<Page<Wallet>> listByOwner(String owner, PageRequest page)")) {
      assertThat(compilation).generatedSourceFile("fixture.WalletAsyncRepository").contentsAsUtf8String().contains(lookup);
    }
  }

  @Test
  void asyncTrueOnATipLayoutAggregateGeneratesAnAsyncRepositoryOverItsTipDefinition() {
    Compilation compilation = javac()
        .withProcessors(new EsgenProcessor())
        .withOptions("-Xlint:all,-processing,-auxiliaryclass", "-Werror")
        .compile(JavaFileObjects.forResource("async/Cart.java"));
    assertThat(compilation).succeededWithoutWarnings();
    assertThat(compilation)
        .generatedSourceFile("fixture.CartAsyncRepository")
        .contentsAsUtf8String()
        .contains("super(store, CartRepository.definition(store.objectMapper()));");
    assertThat(compilation)
        .generatedSourceFile("fixture.CartAsyncRepository")
        .contentsAsUtf8String()
        .contains("public CompletableFuture<Page<Cart>> listByOwner(String owner, PageRequest page)");
    assertThat(compilation)
        .generatedSourceFile("fixture.CartRepository")
        .contentsAsUtf8String()
        .contains("LayoutKind.TIP");
  }

  /**
   * The generated Javadoc names the component a lookup takes (not the column's stored name), does not make
   * plurals by appending "s", suggests the other layout for {@code withLayout}, and speaks of lookups only
   * where there are some.
   */
  @Test
  void theGeneratedJavadocSaysWhatTheGeneratedCodeDoes() {
    Compilation compilation = javac()
        .withProcessors(new EsgenProcessor())
        .withOptions("-Xlint:all,-processing,-auxiliaryclass", "-Werror")
        .compile(JavaFileObjects.forResource("javadoc/Address.java"));
    assertThat(compilation).succeededWithoutWarnings();
    assertThat(compilation).generatedSourceFile("fixture.AddressRepository").contentsAsUtf8String()
        .contains("A page of the Address aggregates whose {@code city} is {@code city}");
    assertThat(compilation).generatedSourceFile("fixture.AddressRepository").contentsAsUtf8String()
        .contains("{@code definition(mapper).withLayout(LayoutKind.JOURNAL, TipPolicy.defaults())}");
    assertThat(compilation).generatedSourceFile("fixture.AddressRepository").contentsAsUtf8String()
        .contains("the lookups by its index columns are generated here.");
    assertThat(compilation).generatedSourceFile("fixture.AddressRepository").contentsAsUtf8String()
        .doesNotContain("{@code city_name} is");
    assertThat(compilation).generatedSourceFile("fixture.NoteRepository").contentsAsUtf8String()
        .doesNotContain("lookup");
    assertThat(compilation).generatedSourceFile("fixture.NoteAsyncRepository").contentsAsUtf8String()
        .doesNotContain("lookup");
  }

  /**
   * Generated code has to name and call what the domain deprecates: each generated class suppresses the
   * warnings of what it uses, deprecation or removal (which javac reports even without -Xlint), and only those.
   */
  @Test
  void deprecatedPartsOfTheDomainRaiseNoWarningInGeneratedCode() {
    Compilation compilation = javac()
        .withProcessors(new EsgenProcessor())
        .withOptions("-Xlint:all,-processing,-auxiliaryclass", "-Werror")
        .compile(JavaFileObjects.forResource("deprecated/Thing.java"), JavaFileObjects.forResource("deprecated/Vault.java"));
    assertThat(compilation).succeededWithoutWarnings();
    assertThat(compilation).generatedSourceFile("fixture.ThingRepository").contentsAsUtf8String()
        .contains("@SuppressWarnings(\"deprecation\")\nfinal class ThingRepository ");
    assertThat(compilation).generatedSourceFile("fixture.VaultRepository").contentsAsUtf8String()
        .contains("@SuppressWarnings(\"removal\")\nfinal class VaultRepository ");
    assertThat(compilation).generatedSourceFile("fixture.VaultAsyncRepository").contentsAsUtf8String()
        .contains("@SuppressWarnings(\"removal\")\nfinal class VaultAsyncRepository ");
  }

  @Test
  void aDomainWithNothingDeprecatedSuppressesNothing() {
    Compilation compilation = javac().withProcessors(new EsgenProcessor()).compile(BANK);
    assertThat(compilation).generatedSourceFile("fixture.BankAccountRepository").contentsAsUtf8String()
        .doesNotContain("@SuppressWarnings");
  }

  @Test
  void withoutAsyncNoAsyncRepositoryIsGenerated() {
    Compilation compilation = javac().withProcessors(new EsgenProcessor()).compile(BANK);
    assertThat(compilation).succeeded();
    assertFalse(compilation.generatedSourceFile("fixture.BankAccountAsyncRepository").isPresent());
    assertThat(compilation).generatedSourceFile("fixture.BankAccountRepository");
  }

  @Test
  void namesThatShadowJavaLangOrGeneratedMembersStillCompile() {
    Compilation compilation = javac()
        .withProcessors(new EsgenProcessor())
        // The fixture keeps its whole domain in one file, which auxiliaryclass would warn about.
        .withOptions("-Xlint:all,-processing,-auxiliaryclass", "-Werror")
        .compile(JavaFileObjects.forResource("names/Shelf.java"));
    assertThat(compilation).succeededWithoutWarnings();
    assertThat(compilation)
        .generatedSourceFile("fixture.ShelfRepository")
        .contentsAsUtf8String()
        .contains("listByPage(String page, PageRequest pageRequest)");
  }

  @Test
  void storedNamesThatWouldEndTheJavadocAreEscapedInIt() {
    Compilation compilation = javac()
        .withProcessors(new EsgenProcessor())
        .withOptions("-Xlint:all,-processing,-auxiliaryclass", "-Werror")
        .compile(JavaFileObjects.forResource("names/Booking.java"));
    assertThat(compilation).succeededWithoutWarnings();
    assertThat(compilation)
        .generatedSourceFile("fixture.BookingRepository")
        .contentsAsUtf8String()
        .contains("Stored type <code>\"booked *&#47; &#123;&#64;code x&#125;\"</code> at version 2");
    assertThat(compilation)
        .generatedSourceFile("fixture.BookingRepository")
        .contentsAsUtf8String()
        .contains("Stored type <code>\"gone *&#47; &lt;b&gt;&amp;&lt;&#47;b&gt;\"</code>, which no event class");
    assertThat(compilation)
        .generatedSourceFile("fixture.BookingRepository")
        .contentsAsUtf8String()
        .contains("case \"booked */ {@code x}\":");
  }

  /** The limit is computed by the runtime from the name and layout: generated code holds no key-size number. */
  @Test
  void keysHandTheIdStringToTheRuntimesCheck() {
    Compilation compilation = javac().withProcessors(new EsgenProcessor()).compile(BANK);
    assertThat(compilation)
        .generatedSourceFile("fixture.BankAccountRepository")
        .contentsAsUtf8String()
        .contains("return AggregateIds.requireValid(\"bank-account\", LayoutKind.JOURNAL, value.toString());");
  }

  /**
   * The one golden text, the replay nested in the repository, compared as text: esgen controls all of the
   * formatting, and the generated code is what users read in a debugger. (compile-testing's tree comparison
   * needs javac internals that JDK 17+ does not export.)
   */
  @Test
  void replayMatchesTheGoldenText() throws IOException {
    Compilation compilation = javac().withProcessors(new EsgenProcessor()).compile(BANK);
    String golden;
    try (InputStream in = GenerationTest.class.getResourceAsStream("/golden/BankAccountRepository.Replay.txt")) {
      golden = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    assertThat(compilation)
        .generatedSourceFile("fixture.BankAccountRepository")
        .contentsAsUtf8String()
        .contains(golden);
  }

  /** Stored names may hold any character: the generated literals escape the line and paragraph separators. */
  @Test
  void storedNamesWithLineSeparatorsCompile() {
    Compilation compilation = javac()
        .withProcessors(new EsgenProcessor())
        .withOptions("-Xlint:all,-processing,-auxiliaryclass", "-Werror")
        .compile(JavaFileObjects.forResource("names/LineSeparators.java"));
    assertThat(compilation).succeededWithoutWarnings();
    assertThat(compilation).generatedSourceFile("fixture.NoteRepository").contentsAsUtf8String()
        .contains("case \"note\\u2029created\":");
  }

  @Test
  void anAggregateWaitsForATypeAnotherProcessorGenerates() {
    Compilation compilation =
        javac()
            .withProcessors(new EsgenProcessor(), new OtherProcessor())
            .compile(JavaFileObjects.forResource("deferred/Wallet.java"));
    // Only an enum (or another supported type) passes the column-type check: the deferred type was seen.
    assertThat(compilation).succeeded();
    assertThat(compilation)
        .generatedSourceFile("fixture.WalletRepository")
        .contentsAsUtf8String()
        .contains("return currency == null ? null : IndexValues.of(currency);");
  }

  @Test
  void aTypeThatNeverAppearsIsReportedOnTheAggregate() {
    JavaFileObject source = JavaFileObjects.forResource("deferred/Wallet.java");
    Compilation compilation = javac().withProcessors(new EsgenProcessor()).compile(source);
    assertThat(compilation)
        .hadErrorContaining("[esgen:unresolved-type] esgen did not generate code for Wallet because Currency")
        .inFile(source)
        .onLineContaining("record Wallet(");
  }

  @Test
  void annotationValuesWaitForConstantsAnotherProcessorGenerates() {
    Compilation compilation =
        javac()
            .withProcessors(new EsgenProcessor(), new OtherProcessor("fixture.VaultNames",
                "public final class VaultNames {\n  public static final String NAME = \"vault\";\n"
                    + "  public static final int SHARDS = 3;\n  public static final String OPENED = \"vault-opened\";\n"
                    + "  public static final String OWNER = \"holder\";\n}\n"))
            .compile(JavaFileObjects.forResource("deferred/Vault.java"));
    assertThat(compilation).succeeded();
    assertThat(compilation)
        .generatedSourceFile("fixture.VaultRepository")
        .contentsAsUtf8String()
        .contains(".shards(3)");
    assertThat(compilation)
        .generatedSourceFile("fixture.VaultRepository")
        .contentsAsUtf8String()
        .contains("IndexColumn.indexed(\"holder\")");
  }

  @Test
  void annotationValuesThatNeverResolveAreReportedOnTheAggregate() {
    JavaFileObject source = JavaFileObjects.forResource("deferred/Vault.java");
    Compilation compilation = javac().withProcessors(new EsgenProcessor()).compile(source);
    assertThat(compilation)
        .hadErrorContaining("[esgen:unresolved-type] esgen did not generate code for Vault because the name of"
            + " @Aggregate, the shards of @Aggregate")
        .inFile(source)
        .onLineContaining("record Vault(");
    assertThat(compilation).hadErrorContaining("the column of @Indexed");
    assertThat(compilation).hadErrorContaining("the value of @EventType");
    for (Diagnostic<?> error : compilation.errors()) {
      assertFalse(error.getMessage(null).contains("[esgen:internal-error]"), error.getMessage(null));
      assertFalse(error.getMessage(null).contains("[esgen:invalid-name]"), error.getMessage(null));
    }
  }

  /**
   * A handler's thrown type another processor generates is waited for: javac holds an unresolved type a
   * subtype of RuntimeException, so judged early, a checked exception would pass and the replay calling
   * the handler would not compile.
   */
  @Test
  void thrownTypesWaitForTheProcessorThatGeneratesThem() {
    JavaFileObject source = JavaFileObjects.forResource("deferred/Ledger.java");
    Compilation compilation = javac()
        .withProcessors(new EsgenProcessor(), new OtherProcessor("fixture.LedgerRejected",
            "public class LedgerRejected extends Exception {}\n"))
        .compile(source);
    assertThat(compilation)
        .hadErrorContaining(
            "[esgen:handler-throws] open(LedgerOpened) declares checked exception fixture.LedgerRejected")
        .inFile(source)
        .onLineContaining("static Ledger open(");
    assertThat(compilation).hadErrorCount(1);
  }

  private static final String MONEY = "public record Money(long cents, String currency) {}\n";

  /**
   * A generated type held through written ones (the state's Contents, an event) is waited for like one the
   * aggregate names itself: the fingerprint is the one the written-out type gives, not that of an error type.
   */
  @Test
  void typesHeldThroughOthersAreWaitedFor() throws IOException {
    Compilation generated = javac()
        .withProcessors(new EsgenProcessor(), new OtherProcessor("fixture.Money", MONEY))
        .compile(JavaFileObjects.forResource("deferred/Safe.java"));
    Compilation written = javac()
        .withProcessors(new EsgenProcessor())
        .compile(JavaFileObjects.forResource("deferred/Safe.java"),
            JavaFileObjects.forSourceString("fixture.Money", "package fixture;\n\n" + MONEY));
    assertThat(generated).succeeded();
    assertEquals(fingerprint(written, "fixture.SafeRepository"), fingerprint(generated, "fixture.SafeRepository"));
  }

  /** An interface another processor generates is judged as Jackson will meet it, once it exists. */
  @Test
  void theJsonOfTypesHeldThroughOthersIsCheckedOnceTheyExist() {
    JavaFileObject source = JavaFileObjects.forResource("deferred/Safe.java");
    Compilation compilation = javac()
        .withProcessors(new EsgenProcessor(), new OtherProcessor("fixture.Money", "public interface Money {}\n"))
        .compile(source);
    assertThat(compilation)
        .hadErrorContaining("Money is an interface, and the stored JSON does not say which class to build")
        .inFile(source)
        .onLineContaining("record Safe(");
  }

  private static String fingerprint(Compilation compilation, String repository) throws IOException {
    String source = compilation.generatedSourceFile(repository).orElseThrow().getCharContent(true).toString();
    Matcher constant = Pattern.compile("FINGERPRINT = \"([A-Za-z0-9_-]{11})\"").matcher(source);
    assertTrue(constant.find(), source);
    return constant.group(1);
  }

  /** Stands in for another annotation processor: writes one source file in the first round. */
  private static final class OtherProcessor extends AbstractProcessor {
    private final String type;
    private final String body;
    private boolean written;

    OtherProcessor() {
      this("fixture.Currency", "public enum Currency { EUR, USD }\n");
    }

    OtherProcessor(String type, String body) {
      this.type = type;
      this.body = body;
    }

    @Override
    public Set<String> getSupportedAnnotationTypes() {
      return Set.of("*");
    }

    @Override
    public SourceVersion getSupportedSourceVersion() {
      return SourceVersion.latestSupported();
    }

    @Override
    public boolean process(Set<? extends TypeElement> annotations, RoundEnvironment round) {
      if (!written) {
        written = true;
        try (Writer writer = processingEnv.getFiler().createSourceFile(type).openWriter()) {
          writer.write("package fixture;\n\n" + body);
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }
      return false;
    }
  }
}
