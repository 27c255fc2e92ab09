package dev.esgen.consumertest;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Element;

/**
 * bom/pom.xml lists every published module, and repeats what it cannot inherit from the parent
 * (metadata, plugin versions) exactly. A published module is one whose jar names its
 * {@code Automatic-Module-Name}.
 */
class BomTest {

  private static final Path ROOT = Path.of(System.getProperty("esgen.root"));
  private static final Pom PARENT = Pom.read(ROOT.resolve("pom.xml"));
  private static final Pom BOM = Pom.read(ROOT.resolve("bom/pom.xml"));

  @Test
  void listsEveryPublishedModuleAndNothingElse() {
    TreeSet<String> published = new TreeSet<>();
    for (Element module : PARENT.all("modules/module")) {
      Pom pom = Pom.read(ROOT.resolve(module.getTextContent().strip()).resolve("pom.xml"));
      if (pom.mentions("Automatic-Module-Name")) {
        published.add(pom.text("groupId").orElse("dev.esgen") + ":" + pom.text("artifactId").orElseThrow());
      }
    }
    TreeSet<String> listed = new TreeSet<>();
    for (Element dependency : BOM.all("dependencyManagement/dependencies/dependency")) {
      listed.add(Pom.coordinates(dependency));
      assertEquals("${project.version}", Pom.text(dependency, "version"), Pom.coordinates(dependency));
    }
    assertEquals(published, listed, "bom/pom.xml must list every published module, and only those");
  }

  @Test
  void hasTheParentsVersionAndMetadata() {
    assertEquals(PARENT.text("groupId"), BOM.text("groupId"));
    assertEquals(PARENT.text("version"), BOM.text("version"));
    for (String element : new String[] {"url", "licenses", "developers", "scm"}) {
      assertEquals(normalized(PARENT, element), normalized(BOM, element), element);
    }
  }

  @Test
  void pinsThePluginsAtTheParentsVersions() {
    Map<String, String> parents = plugins(PARENT);
    Map<String, String> boms = plugins(BOM);
    for (Map.Entry<String, String> plugin : boms.entrySet()) {
      assertEquals(parents.get(plugin.getKey()), plugin.getValue(), plugin.getKey());
    }
  }

  static Map<String, String> plugins(Pom pom) {
    return pom.all("build/pluginManagement/plugins/plugin").stream()
        .collect(Collectors.toMap(Pom::coordinates, plugin -> Pom.text(plugin, "version"), (a, b) -> a, TreeMap::new));
  }

  private static String normalized(Pom pom, String element) {
    return pom.all(element).stream()
        .map(e -> e.getTextContent().strip().replaceAll("\\s+", " "))
        .collect(Collectors.joining("|"));
  }
}
