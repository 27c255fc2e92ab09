package dev.esgen.processor;

import com.sun.source.tree.BlockTree;
import com.sun.source.tree.ClassTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.NewClassTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.VariableTree;
import com.sun.source.util.TreePath;
import com.sun.source.util.Trees;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.TypeElement;
import javax.lang.model.element.VariableElement;
import javax.lang.model.util.ElementFilter;
import javax.lang.model.util.Elements;

/**
 * Where the members that the handlers' code may use are declared in the aggregate's source: in the
 * aggregate and in the classes nested in it, at any depth. Found in one walk over the classes' members
 * (asking javac for each member's path searches the whole compilation unit every time), and empty when
 * the source is not at hand (under another compiler than javac).
 */
final class AggregateDeclarations {

  /** A static field {@code name} of {@code owner} (the aggregate or a class nested in it), declared at {@code path}. */
  record StaticField(TypeElement owner, String name, TreePath path) {

    /**
     * The aggregate's fields by their names, as before nested classes' counted, so that the order their
     * initializers are read in (and the fingerprint) stays; a nested class's by its class's name too.
     */
    String key(TypeElement aggregate) {
      return owner.equals(aggregate) ? name : owner.getQualifiedName() + "." + name;
    }
  }

  private final TypeElement aggregate;
  /** The methods and constructors, with where each is declared, in declaration order. */
  private final Map<ExecutableElement, TreePath> methods = new LinkedHashMap<>();
  /** The static fields by {@link StaticField#key}, in declaration order. */
  private final Map<String, StaticField> staticFields = new LinkedHashMap<>();
  /** The nested classes by simple name, in declaration order. */
  private final Map<String, List<TypeElement>> nestedTypes = new LinkedHashMap<>();
  /**
   * What creating an object of a class runs besides its constructor, by class: its instance fields'
   * initializers and initializer blocks, and a nested enum's constants, which create its objects.
   */
  private final Map<TypeElement, List<TreePath>> creationInitializers = new LinkedHashMap<>();
  /** The static initializer blocks, by class, in declaration order. */
  private final Map<TypeElement, List<TreePath>> staticBlocks = new LinkedHashMap<>();
  /**
   * The nested enums whose constants run code of the source (with arguments or a body, a constructor, an
   * initializer), by each name that uses them: theirs, their constants' and their instance fields'.
   */
  private final Map<String, Set<TypeElement>> codeRunningEnums = new HashMap<>();
  /** Every nested enum by its name and each of its constants' names: what code may depend on their order through. */
  private final Map<String, Set<TypeElement>> enumsByName = new HashMap<>();

  private AggregateDeclarations(TypeElement aggregate) {
    this.aggregate = aggregate;
  }

  /** The declarations of {@code aggregate}'s source; none when {@code trees} is null (not javac). */
  static AggregateDeclarations of(TypeElement aggregate, Trees trees, Elements elements) {
    AggregateDeclarations declarations = new AggregateDeclarations(aggregate);
    TreePath type = trees == null ? null : trees.getPath(aggregate);
    if (type != null && type.getLeaf() instanceof ClassTree) {
      declarations.declare(type, aggregate, trees);
    }
    declarations.creationInitializers.forEach((nested, paths) -> {
      boolean constructs = paths.stream().anyMatch(path -> !plainConstant(path.getLeaf()))
          || ElementFilter.constructorsIn(nested.getEnclosedElements()).stream()
              .anyMatch(constructor -> elements.getOrigin(constructor) == Elements.Origin.EXPLICIT);
      if (nested.getKind() == ElementKind.ENUM && constructs) {
        declarations.codeRunningEnums.computeIfAbsent(nested.getSimpleName().toString(), name -> new LinkedHashSet<>())
            .add(nested);
        for (VariableElement field : ElementFilter.fieldsIn(nested.getEnclosedElements())) {
          if (!field.getModifiers().contains(Modifier.STATIC) || field.getKind() == ElementKind.ENUM_CONSTANT) {
            declarations.codeRunningEnums.computeIfAbsent(field.getSimpleName().toString(), name -> new LinkedHashSet<>())
                .add(nested);
          }
        }
      }
    });
    for (TypeElement nested : declarations.nestedEnums()) {
      declarations.enumsByName.computeIfAbsent(nested.getSimpleName().toString(), name -> new LinkedHashSet<>())
          .add(nested);
      for (Element constant : constants(nested)) {
        declarations.enumsByName.computeIfAbsent(constant.getSimpleName().toString(), name -> new LinkedHashSet<>())
            .add(nested);
      }
    }
    return declarations;
  }

  /** Adds the members of the class at {@code type}, and those of the classes nested in it. */
  private void declare(TreePath type, TypeElement owner, Trees trees) {
    for (Tree member : ((ClassTree) type.getLeaf()).getMembers()) {
      TreePath path = new TreePath(type, member);
      if (member instanceof MethodTree) {
        // A declaration carries its symbol from the start: this attributes nothing.
        if (trees.getElement(path) instanceof ExecutableElement method) {
          methods.put(method, path);
        }
      } else if (member instanceof ClassTree) {
        if (trees.getElement(path) instanceof TypeElement nested) {
          nestedTypes.computeIfAbsent(nested.getSimpleName().toString(), name -> new ArrayList<>()).add(nested);
          declare(path, nested, trees);
        }
      } else if (member instanceof BlockTree block && block.isStatic()) {
        staticBlocks.computeIfAbsent(owner, initialized -> new ArrayList<>()).add(path);
      } else if (runsOnCreation(path, trees)) {
        creationInitializers.computeIfAbsent(owner, created -> new ArrayList<>()).add(path);
      } else if (member instanceof VariableTree field && field.getModifiers().getFlags().contains(Modifier.STATIC)) {
        StaticField declared = new StaticField(owner, field.getName().toString(), path);
        staticFields.put(declared.key(aggregate), declared);
      }
    }
  }

  /**
   * Whether the member at {@code path} runs when an object of its class is created: an instance initializer
   * block, an instance field's initializer, an enum constant.
   */
  private static boolean runsOnCreation(TreePath path, Trees trees) {
    Tree member = path.getLeaf();
    if (member instanceof BlockTree block) {
      return !block.isStatic();
    }
    if (!(member instanceof VariableTree field) || field.getInitializer() == null) {
      return false;
    }
    return !field.getModifiers().getFlags().contains(Modifier.STATIC)
        || (trees.getElement(path) instanceof VariableElement variable
            && variable.getKind() == ElementKind.ENUM_CONSTANT);
  }

  /** Whether {@code member} is an enum constant without arguments or a body: one that runs no code of its own. */
  private static boolean plainConstant(Tree member) {
    return member instanceof VariableTree constant && constant.getInitializer() instanceof NewClassTree created
        && created.getArguments().isEmpty() && created.getClassBody() == null;
  }

  TypeElement aggregate() {
    return aggregate;
  }

  /** The methods and constructors declared, in declaration order. */
  Set<ExecutableElement> methods() {
    return Collections.unmodifiableSet(methods.keySet());
  }

  /** Where {@code method} is declared; null for a method this source does not declare. */
  TreePath declarationOf(ExecutableElement method) {
    return methods.get(method);
  }

  /** The static fields by {@link StaticField#key}, in declaration order. */
  Map<String, StaticField> staticFields() {
    return Collections.unmodifiableMap(staticFields);
  }

  /** The aggregate and the classes nested in it named {@code name}: those {@code new} of that name may create. */
  List<TypeElement> typesNamed(String name) {
    List<TypeElement> named = new ArrayList<>(nestedTypes.getOrDefault(name, List.of()));
    if (aggregate.getSimpleName().contentEquals(name)) {
      named.add(aggregate);
    }
    return named;
  }

  /** What creating an object of each class runs besides its constructor, by class, in declaration order. */
  Map<TypeElement, List<TreePath>> creationInitializers() {
    return Collections.unmodifiableMap(creationInitializers);
  }

  List<TreePath> creationInitializersOf(TypeElement type) {
    return creationInitializers.getOrDefault(type, List.of());
  }

  /** The static initializer blocks, by class, in declaration order. */
  Map<TypeElement, List<TreePath>> staticBlocks() {
    return Collections.unmodifiableMap(staticBlocks);
  }

  List<TreePath> staticBlocksOf(TypeElement type) {
    return staticBlocks.getOrDefault(type, List.of());
  }

  /** The nested enums whose constants run code of the source that code naming {@code name} uses. */
  Set<TypeElement> codeRunningEnumsUsedBy(String name) {
    return codeRunningEnums.getOrDefault(name, Set.of());
  }

  /** The nested enums that {@code name} names, or one of whose constants it names. */
  Set<TypeElement> enumsNamedBy(String name) {
    return enumsByName.getOrDefault(name, Set.of());
  }

  /** The enums nested in the aggregate, at any depth, in declaration order. */
  List<TypeElement> nestedEnums() {
    return nestedTypes.values().stream().flatMap(List::stream)
        .filter(nested -> nested.getKind() == ElementKind.ENUM)
        .toList();
  }

  /** The constants of {@code type}, an enum, in declaration order: the order of their ordinals. */
  static List<Element> constants(TypeElement type) {
    return type.getEnclosedElements().stream()
        .filter(member -> member.getKind() == ElementKind.ENUM_CONSTANT)
        .map(Element.class::cast)
        .toList();
  }
}
