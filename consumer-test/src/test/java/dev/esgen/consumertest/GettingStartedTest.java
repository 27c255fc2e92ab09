package dev.esgen.consumertest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Element;

/**
 * What building docs/getting-started.md's Maven project cannot check: that it uses this checkout's
 * version and the plugin and JUnit versions esgen's own build downloads (so that it builds offline once
 * that build ran), that the page shows each file's path and its Java files sit where their packages
 * say, and that the Gradle builds, which nothing here can run, declare the same esgen artifacts,
 * versions and JUnit as the Maven one.
 */
class GettingStartedTest {

  private static final Path ROOT = Path.of(System.getProperty("esgen.root"));
  private static final Path PAGE = ROOT.resolve("docs/getting-started.md");
  private static final Map<String, String> SNIPPETS = Snippets.read(PAGE);
  private static final Pom PROJECT = Pom.parse(SNIPPETS.get("pom.xml"));
  private static final Pom PARENT = Pom.read(ROOT.resolve("pom.xml"));

  /** A dependency line of a Gradle build, Groovy or Kotlin: {@code implementation platform("g:a:v")}. */
  private static final Pattern GRADLE_DEPENDENCY =
      Pattern.compile("^\\s*(\\w+)\\s*\\(?\\s*(platform\\s*\\(\\s*)?[\"']([^\"':]+:[^\"']+)[\"']", Pattern.MULTILINE);
  private static final Pattern GRADLE_ESGEN_VERSION =
      Pattern.compile("^(?:def|val) esgenVersion = [\"']([^\"']+)[\"']$", Pattern.MULTILINE);
  private static final Pattern MARKER = Pattern.compile("<!-- snippet: (\\S+) -->");
  private static final Pattern JAVA_PACKAGE = Pattern.compile("^package ([\\w.]+);$", Pattern.MULTILINE);

  @Test
  void theMavenProjectIsBuiltFromThisCheckoutsVersion() {
    assertEquals(System.getProperty("esgen.version"), esgenVersion());
  }

  @Test
  void theMavenProjectPinsThePluginsEsgenBuildsWith() {
    Map<String, String> esgens = BomTest.plugins(PARENT);
    int pinned = 0;
    for (String path : new String[] {"build/plugins/plugin", "build/pluginManagement/plugins/plugin"}) {
      for (Element plugin : PROJECT.all(path)) {
        String coordinates = Pom.coordinates(plugin);
        assertEquals(esgens.get(coordinates), Pom.text(plugin, "version"), coordinates);
        pinned++;
      }
    }
    assertTrue(pinned >= 4, "resources, compiler, surefire and jar at least");
  }

  @Test
  void theMavenProjectUsesTheJUnitEsgenBuildsWith() {
    assertEquals(PARENT.text("properties/junit.version").orElseThrow(), junitVersion());
  }

  /** The SDK BOM keeps DynamoDB Local's SDK modules at esgen's version, the four it never calls at its own. */
  @Test
  void theMavenProjectUsesTheSdkVersionsEsgenBuildsWith() {
    Map<String, String> managed = new TreeMap<>();
    for (Element entry : PROJECT.all("dependencyManagement/dependencies/dependency")) {
      managed.put(Pom.coordinates(entry), Pom.text(entry, "version"));
    }
    assertEquals(PARENT.text("properties/aws-sdk.version").orElseThrow(), managed.get("software.amazon.awssdk:bom"));
    for (String module : List.of("pinpoint", "cognitoidentity", "cognitoidentityprovider", "dynamodb-enhanced")) {
      assertEquals(PARENT.text("properties/dynamodb-local.aws-sdk.version").orElseThrow(),
          managed.get("software.amazon.awssdk:" + module), module);
    }
  }

  @Test
  void theGroovyBuildDeclaresWhatTheMavenBuildDoes() {
    assertEquals(expectedGradleDeclarations(), gradleDeclarations("build.gradle"));
  }

  @Test
  void theKotlinBuildDeclaresWhatTheMavenBuildDoes() {
    assertEquals(expectedGradleDeclarations(), gradleDeclarations("build.gradle.kts"));
  }

  /** The marker does not show on the rendered page, so a reader learns where a file goes from this label. */
  @Test
  void everyFileIsLabelledWithItsPath() throws IOException {
    List<String> page = Files.readAllLines(PAGE);
    int labelled = 0;
    for (int i = 0; i < page.size(); i++) {
      Matcher marker = MARKER.matcher(page.get(i));
      if (marker.matches()) {
        int label = i - 1;
        while (label > 0 && page.get(label).isBlank()) {
          label--;
        }
        assertEquals("`" + marker.group(1) + "`:", page.get(label), "the line above " + page.get(i));
        labelled++;
      }
    }
    assertEquals(SNIPPETS.size(), labelled);
  }

  @Test
  void javaFilesSitWhereTheirPackagesSay() {
    int files = 0;
    for (Map.Entry<String, String> snippet : SNIPPETS.entrySet()) {
      if (!snippet.getKey().endsWith(".java")) {
        continue;
      }
      Matcher declared = JAVA_PACKAGE.matcher(snippet.getValue());
      assertTrue(declared.find(), snippet.getKey() + " declares no package");
      String name = Path.of(snippet.getKey()).getFileName().toString().replace(".java", "");
      String expected = "/java/" + declared.group(1).replace('.', '/') + "/" + name + ".java";
      assertTrue(snippet.getKey().matches("src/(main|test)" + Pattern.quote(expected)), snippet.getKey());
      assertTrue(
          Pattern.compile("\\b(class|record|interface) " + name + "\\b").matcher(snippet.getValue()).find(),
          snippet.getKey() + " declares no type " + name);
      files++;
    }
    assertFalse(files == 0, "the page has no Java files");
  }

  /**
   * The esgen and JUnit lines a Gradle build needs for the Maven project's dependencies: the BOMs as
   * platforms (esgen's for the annotation processor as well), compile dependencies as
   * {@code implementation}, test ones as {@code testImplementation}, the processor path as
   * {@code annotationProcessor}, and the JUnit Platform launcher Gradle wants besides.
   */
  private static Set<String> expectedGradleDeclarations() {
    Set<String> expected = new TreeSet<>();
    String esgenBom = "platform dev.esgen:esgen-bom:" + esgenVersion();
    expected.add("implementation " + esgenBom);
    expected.add("annotationProcessor " + esgenBom);
    expected.add("testImplementation platform org.junit:junit-bom:" + junitVersion());
    for (Element dependency : PROJECT.all("dependencies/dependency")) {
      String scope = Pom.text(dependency, "scope");
      expected.add((scope.equals("test") ? "testImplementation " : "implementation ") + Pom.coordinates(dependency));
    }
    for (Element processor : PROJECT.all("build/plugins/plugin/configuration/annotationProcessorPaths/path")) {
      expected.add("annotationProcessor " + Pom.coordinates(processor));
    }
    expected.add("testRuntimeOnly org.junit.platform:junit-platform-launcher");
    return expected;
  }

  private static Set<String> gradleDeclarations(String file) {
    String build = SNIPPETS.get(file);
    Matcher version = GRADLE_ESGEN_VERSION.matcher(build);
    assertTrue(version.find(), file + " names no esgenVersion");
    Set<String> declarations = new TreeSet<>();
    Matcher line = GRADLE_DEPENDENCY.matcher(build);
    while (line.find()) {
      String coordinates = line.group(3).replace("${esgenVersion}", version.group(1))
          .replace("$esgenVersion", version.group(1));
      declarations.add(line.group(1) + " " + (line.group(2) == null ? "" : "platform ") + coordinates);
    }
    return declarations;
  }

  private static String esgenVersion() {
    return PROJECT.text("properties/esgen.version").orElseThrow();
  }

  private static String junitVersion() {
    Map<String, String> imported = new TreeMap<>();
    for (Element bom : PROJECT.all("dependencyManagement/dependencies/dependency")) {
      imported.put(Pom.coordinates(bom), Pom.text(bom, "version"));
    }
    return imported.get("org.junit:junit-bom");
  }
}
