package dev.esgen.consumertest;

import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.xml.sax.InputSource;
import org.xml.sax.SAXException;

/** A pom.xml read as plain XML: elements by path, without Maven's inheritance or interpolation. */
final class Pom {

  private final Element project;

  private Pom(Element project) {
    this.project = project;
  }

  static Pom read(Path file) {
    try {
      return parse(Files.readString(file));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static Pom parse(String xml) {
    try {
      DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
      factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
      return new Pom(factory.newDocumentBuilder().parse(new InputSource(new StringReader(xml))).getDocumentElement());
    } catch (ParserConfigurationException | SAXException | IOException e) {
      throw new IllegalArgumentException("not a pom: " + e.getMessage(), e);
    }
  }

  Element project() {
    return project;
  }

  /** The elements at {@code path} below the project, such as {@code "dependencies/dependency"}. */
  List<Element> all(String path) {
    return all(project, path);
  }

  /** The text of the single element at {@code path}, if there is one. */
  Optional<String> text(String path) {
    List<Element> found = all(path);
    return found.isEmpty() ? Optional.empty() : Optional.of(found.get(0).getTextContent().strip());
  }

  /** Whether an element called {@code name} appears anywhere in the pom. */
  boolean mentions(String name) {
    return project.getElementsByTagName(name).getLength() > 0;
  }

  static List<Element> all(Element from, String path) {
    List<Element> level = List.of(from);
    for (String name : path.split("/")) {
      List<Element> next = new ArrayList<>();
      for (Element element : level) {
        for (Node child = element.getFirstChild(); child != null; child = child.getNextSibling()) {
          if (child instanceof Element e && e.getTagName().equals(name)) {
            next.add(e);
          }
        }
      }
      level = next;
    }
    return level;
  }

  static String text(Element from, String name) {
    List<Element> found = all(from, name);
    return found.isEmpty() ? "" : found.get(0).getTextContent().strip();
  }

  /** {@code groupId:artifactId} of a dependency, plugin or path element. */
  static String coordinates(Element element) {
    String group = text(element, "groupId");
    return (group.isEmpty() ? "org.apache.maven.plugins" : group) + ":" + text(element, "artifactId");
  }
}
