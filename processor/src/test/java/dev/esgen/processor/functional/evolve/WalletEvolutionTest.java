package dev.esgen.processor.functional.evolve;

import static com.google.testing.compile.CompilationSubject.assertThat;
import static com.google.testing.compile.Compiler.javac;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.testing.compile.Compilation;
import com.google.testing.compile.JavaFileObjects;
import dev.esgen.processor.EsgenProcessor;
import dev.esgen.runtime.config.StoreConfig;
import dev.esgen.runtime.error.EventDecodingException;
import dev.esgen.runtime.error.UnexpectedEventException;
import dev.esgen.test.DynamoDbLocal;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * The wallet compiled as each of its releases ({@link WalletVersions}), each release in a class loader of
 * its own on a store of its own, all over the same DynamoDB Local tables: streams written by one release
 * are read and extended by the next, and old releases meet what new ones wrote.
 */
class WalletEvolutionTest {

  static final StoreConfig CONFIG = StoreConfig.defaults()
      .withJournalTable("evo-journal").withSnapshotTable("evo-snapshot").withTipTable("evo-streams");
  static final DynamoDbClient CLIENT = DynamoDbClient.builder()
      .endpointOverride(DynamoDbLocal.shared().endpoint())
      .region(Region.US_EAST_1)
      .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("x", "x")))
      .httpClient(UrlConnectionHttpClient.create())
      .build();

  private static final Map<String, ClassLoader> LOADERS = new HashMap<>();

  /** Where each release's classes are written; JUnit deletes it after the class's tests. */
  @TempDir
  static Path releases;

  static synchronized WalletDriver driver(String source, boolean tip) throws Exception {
    ClassLoader loader = LOADERS.get(source);
    if (loader == null) {
      Compilation compilation = javac().withProcessors(new EsgenProcessor())
          .compile(JavaFileObjects.forSourceString("evo.WalletDriverImpl", source));
      assertThat(compilation).succeeded();
      Path classes = Files.createTempDirectory(releases, "evo");
      for (JavaFileObject file : compilation.generatedFiles()) {
        if (file.getKind() != JavaFileObject.Kind.CLASS) {
          continue;
        }
        String path = file.toUri().getPath();
        Path target = classes.resolve(path.substring(path.indexOf("/evo/") + 1));
        Files.createDirectories(target.getParent());
        try (InputStream in = file.openInputStream()) {
          Files.copy(in, target);
        }
      }
      loader = new URLClassLoader(new URL[] {classes.toUri().toURL()}, WalletEvolutionTest.class.getClassLoader());
      LOADERS.put(source, loader);
    }
    WalletDriver driver =
        (WalletDriver) loader.loadClass("evo.WalletDriverImpl").getDeclaredConstructor().newInstance();
    driver.init(CLIENT, CONFIG, tip);
    return driver;
  }

  static String newId() {
    return "w-" + UUID.randomUUID();
  }

  static String chain(Throwable t) {
    StringWriter out = new StringWriter();
    t.printStackTrace(new PrintWriter(out));
    return out.toString();
  }

  @ParameterizedTest
  @ValueSource(booleans = {false, true})
  void eachReleaseReadsAndExtendsWhatTheEarlierOnesWrote(boolean tip) throws Exception {
    WalletDriver v1 = driver(WalletVersions.V1, tip);
    WalletDriver v2 = driver(WalletVersions.V2, tip);
    WalletDriver v3 = driver(WalletVersions.V3, tip);
    assertNotEquals(v1.fingerprint(), v2.fingerprint());
    assertNotEquals(v2.fingerprint(), v3.fingerprint());
    String id = newId();
    assertEquals(1, v1.create(id, "Ann"));
    assertEquals(3, v1.act(id, "credit:5", "tag:a"));
    assertEquals(4, v1.act(id, "note:n"));
    assertEquals(5, v1.act(id, "credit:1"));
    assertEquals("Wallet[id=" + id + ", owner=Ann, balance=600, tags=[a]]", v1.load(id));

    assertEquals("Wallet[id=" + id + ", owner=Ann, balance=600, tags=[a], credits=2]", v2.load(id));
    assertEquals(7, v2.act(id, "credit:250", "tag:b"));
    assertEquals("Wallet[id=" + id + ", owner=Ann, balance=850, tags=[a, b], credits=3]", v2.load(id));

    assertEquals("Wallet[id=" + id + ", holder=Ann, balance=850, tags=[a, n, n!, b], currency=EUR]",
        v3.load(id));
    assertEquals(List.of(
            "1 opened Opened[id=" + id + ", owner=Ann]",
            "2 credited Credited[cents=500, currency=EUR]",
            "3 labelled Labelled[tag=a]",
            "4 labelled Labelled[tag=n]",
            "4 labelled Labelled[tag=n!]",
            "5 credited Credited[cents=100, currency=EUR]",
            "6 credited Credited[cents=250, currency=EUR]",
            "7 labelled Labelled[tag=b]"),
        v3.history(id, 1));
    assertEquals(List.of("4 labelled Labelled[tag=n]", "4 labelled Labelled[tag=n!]",
        "5 credited Credited[cents=100, currency=EUR]"), v3.history(id, 4).subList(0, 3));
    assertEquals(8, v3.act(id, "credit:7"));
    assertEquals("Wallet[id=" + id + ", holder=Ann, balance=857, tags=[a, n, n!, b], currency=CHF]", v3.load(id));
    // a fresh v3 store (no state cache) reads v3's own snapshot
    assertEquals("Wallet[id=" + id + ", holder=Ann, balance=857, tags=[a, n, n!, b], currency=CHF]",
        driver(WalletVersions.V3, tip).load(id));

    // a handler changed, nothing else: v3's snapshot is not used
    WalletDriver fixed = driver(WalletVersions.V3_HANDLER, tip);
    assertNotEquals(v3.fingerprint(), fixed.fingerprint());
    assertEquals("Wallet[id=" + id + ", holder=Ann, balance=857, tags=[A, N, N!, B], currency=CHF]", fixed.load(id));
    assertEquals(9, fixed.act(id, "tag:c"));
    assertEquals("Wallet[id=" + id + ", holder=Ann, balance=857, tags=[A, N, N!, B, C], currency=CHF]",
        driver(WalletVersions.V3_HANDLER, tip).load(id));

    // forward: v1 meets "labelled" and credited version 3
    EventDecodingException e =
        assertThrows(EventDecodingException.class, () -> driver(WalletVersions.V1, tip).load(id));
    assertTrue(e.getMessage().contains(" of wallet " + id + ": "), e.getMessage());
    assertTrue(e.seqNr() >= 6, e.getMessage());
    EventDecodingException v2Reads =
        assertThrows(EventDecodingException.class, () -> driver(WalletVersions.V2, tip).load(id));
    assertEquals(8, v2Reads.seqNr(), v2Reads.getMessage());
    assertEquals(3, v2Reads.eventVersion(), v2Reads.getMessage());
  }

  @ParameterizedTest
  @ValueSource(booleans = {false, true})
  void anUpcasterThatThrowsQuotingTheBodyLeavesTheBodyOut(boolean tip) throws Exception {
    WalletDriver v1 = driver(WalletVersions.V1, tip);
    String id = newId();
    v1.create(id, "Ann");
    v1.act(id, "poison:4111-1111-1111-1111");
    EventDecodingException e =
        assertThrows(EventDecodingException.class, () -> driver(WalletVersions.V3, tip).load(id));
    assertEquals(2, e.seqNr());
    assertEquals("poisoned", e.eventType());
    assertFalse(chain(e).contains("4111"), chain(e));
    EventDecodingException history = assertThrows(EventDecodingException.class,
        () -> driver(WalletVersions.V3, tip).history(id, 1));
    assertFalse(chain(history).contains("4111"), chain(history));
  }

  @ParameterizedTest
  @ValueSource(booleans = {false, true})
  void anUpcastEventTheFoldCannotTakeNamesTheStreamAndSeqNr(boolean tip) throws Exception {
    WalletDriver v1 = driver(WalletVersions.V1, tip);
    String id = newId();
    v1.create(id, "Ann");
    v1.act(id, "credit:1");
    v1.act(id, "note:again");
    WalletDriver reopening = driver(WalletVersions.V3_REOPEN, tip);
    UnexpectedEventException e = assertThrows(UnexpectedEventException.class, () -> reopening.load(id));
    assertTrue(e.getMessage().contains(id), e.getMessage());
    assertTrue(e.getMessage().contains("event 3"), e.getMessage());
    assertTrue(e.getMessage().contains("'noted'"), e.getMessage());
    assertEquals(id, e.aggregateId());
    assertEquals(3, e.seqNr());
    assertFalse(chain(e).contains("again"), chain(e));
  }
}
