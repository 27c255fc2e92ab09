package dev.esgen.processor;

import com.palantir.javapoet.JavaFile;
import com.palantir.javapoet.TypeSpec;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import javax.annotation.processing.Filer;
import javax.lang.model.element.Element;
import javax.lang.model.element.ModuleElement;
import javax.lang.model.element.PackageElement;
import javax.lang.model.util.ElementFilter;
import javax.lang.model.util.Elements;

/** Writes every source file generated for one aggregate. */
final class AggregateGenerator {

  private final Filer filer;
  private final Elements elements;
  private final CompiledTypes compiledTypes;

  /**
   * The simple names of {@code java.lang}'s types, read once: asking for each name of each aggregate's
   * package instead cost javac a lookup (and for a name not there, a failed search) every time.
   */
  private Set<String> javaLang;

  public AggregateGenerator(Filer filer, Elements elements, CompiledTypes compiledTypes) {
    this.filer = filer;
    this.elements = elements;
    this.compiledTypes = compiledTypes;
  }

  /**
   * All the top-level types generated for {@code model}, built before any is written: the repository, which
   * holds the rest, and the asynchronous repository when asked for.
   */
  public static List<TypeSpec> types(AggregateModel model) {
    List<TypeSpec> types = new ArrayList<>(List.of(RepositoryGenerator.generate(model)));
    if (model.options().async()) {
      types.add(RepositoryGenerator.generateAsync(model));
    }
    return types;
  }

  /**
   * Writes the generated types of {@code model}, unless a type of this compilation's sources has taken the
   * name of one: the Filer would refuse to write it (and javac warn besides), so nothing is written.
   *
   * @throws NameTakenException naming the first type whose name is taken
   * @throws GenerationException naming the file that could not be written
   */
  public void generate(AggregateModel model) throws NameTakenException, GenerationException {
    List<TypeSpec> types = types(model);
    for (TypeSpec type : types) {
      String name = model.type().packageName() + "." + type.name();
      if (compiledTypes.containsName(name)) {
        throw new NameTakenException(name);
      }
    }
    String[] hidingJavaLang = typesHidingJavaLang(model);
    for (TypeSpec type : types) {
      TypeSpec qualified = type.toBuilder().alwaysQualify(hidingJavaLang).build();
      JavaFile file = JavaFile.builder(model.type().packageName(), qualified).skipJavaLangImports(true).build();
      String name = model.type().packageName() + "." + type.name();
      try {
        file.writeTo(filer);
      } catch (IOException e) {
        throw new GenerationException(name, e);
      }
    }
  }

  /**
   * The simple names of the aggregate's package's top-level types that hide a {@code java.lang} type:
   * an event called {@code Override} or {@code NullPointerException} makes the generated code's
   * unimported use of the {@code java.lang} one mean the event, so JavaPoet qualifies both.
   */
  private String[] typesHidingJavaLang(AggregateModel model) {
    Element element = model.element();
    while (!(element instanceof PackageElement)) {
      element = element.getEnclosingElement();
    }
    return ElementFilter.typesIn(element.getEnclosedElements()).stream()
        .map(type -> type.getSimpleName().toString())
        .filter(this::inJavaLang)
        .toArray(String[]::new);
  }

  private boolean inJavaLang(String simpleName) {
    if (javaLang == null) {
      // Without modules (source level 8) there is no java.base, and the lookup searches the one there is.
      ModuleElement javaBase = elements.getModuleElement("java.base");
      PackageElement lang = javaBase == null
          ? elements.getPackageElement("java.lang")
          : elements.getPackageElement(javaBase, "java.lang");
      javaLang = lang == null ? Set.of() : ElementFilter.typesIn(lang.getEnclosedElements()).stream()
          .map(type -> type.getSimpleName().toString())
          .collect(Collectors.toUnmodifiableSet());
    }
    return javaLang.contains(simpleName);
  }

  /** A type to generate has the name of a type this compilation's sources declare. */
  public static final class NameTakenException extends Exception {
    private static final long serialVersionUID = 1L;

    private final String name;

    NameTakenException(String name) {
      super(name);
      this.name = name;
    }

    /** The qualified name that is taken. */
    public String name() {
      return name;
    }
  }

  /** A generated file could not be written. */
  public static final class GenerationException extends Exception {
    private static final long serialVersionUID = 1L;

    private final String file;

    GenerationException(String file, IOException cause) {
      super(file + ": " + cause.getMessage(), cause);
      this.file = file;
    }

    /** The qualified name of the type that could not be written. */
    public String file() {
      return file;
    }
  }
}
