package dev.esgen.processor;

import com.sun.source.util.TreePath;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.TypeElement;
import javax.lang.model.type.DeclaredType;
import javax.lang.model.util.Elements;

/**
 * The code of the aggregate's source that folding runs, found by walking from the handlers for one
 * fingerprint: the methods and constructors of the aggregate and its nested classes that they call,
 * directly or not (as {@link CallMatcher} matches calls); the static fields that code reads, with what
 * their initializers and their classes' static initializer blocks use in turn; the classes whose objects
 * it creates, with what their instance initializers use; and the nested enums it names.
 */
final class ReachedCode {

  private final Elements elements;
  private final AggregateDeclarations declarations;
  private final CallMatcher calls;
  /** The methods and constructors reached, in the order they were reached. */
  private final Set<ExecutableElement> methods = new LinkedHashSet<>();
  /** The static fields read, by {@link AggregateDeclarations.StaticField#key}. */
  private final Set<String> staticsRead = new HashSet<>();
  /** The classes (a class aggregate, nested classes) whose objects the code creates. */
  private final Set<TypeElement> created = new HashSet<>();
  /** The nested enums the code names, or one of whose constants it names. */
  private final Set<TypeElement> enumsNamed = new HashSet<>();

  private ReachedCode(Elements elements, AggregateDeclarations declarations, CallMatcher calls) {
    this.elements = elements;
    this.declarations = declarations;
    this.calls = calls;
  }

  /** What {@code handlers} (the creating method, then the {@code apply} handlers) reach of {@code declarations}. */
  static ReachedCode from(List<ExecutableElement> handlers, AggregateDeclarations declarations, Elements elements,
      CallMatcher calls) {
    ReachedCode reached = new ReachedCode(elements, declarations, calls);
    for (ExecutableElement handler : handlers) {
      reached.reach(handler);
    }
    reached.readStaticInitializers();
    return reached;
  }

  /** The methods and constructors reached with source of their own, the handlers first, in the order reached. */
  Set<ExecutableElement> methods() {
    return methods;
  }

  /** Whether the code creates objects of {@code type}. */
  boolean creates(TypeElement type) {
    return created.contains(type);
  }

  /** Whether the code reads the static field of {@code key} ({@link AggregateDeclarations.StaticField#key}). */
  boolean reads(String key) {
    return staticsRead.contains(key);
  }

  /** The classes whose static fields the code reads: those whose static initializer blocks it depends on. */
  Set<TypeElement> classesOfStaticsRead() {
    Set<TypeElement> owners = new HashSet<>();
    for (String key : staticsRead) {
      AggregateDeclarations.StaticField field = declarations.staticFields().get(key);
      if (field != null) {
        owners.add(field.owner());
      }
    }
    return owners;
  }

  /** Whether the code names the nested enum {@code type} or one of its constants. */
  boolean names(TypeElement type) {
    return enumsNamed.contains(type);
  }

  /** Adds {@code method} and, when its source is at hand, what it calls, directly or not. */
  private void reach(ExecutableElement method) {
    TypeElement owner = (TypeElement) method.getEnclosingElement();
    // An implicit constructor runs the initializers too; an enum's objects are its constants, whatever creates them.
    if (method.getKind() == ElementKind.CONSTRUCTOR || owner.getKind() == ElementKind.ENUM) {
      create(owner);
    }
    // Implicit members (a record's canonical constructor and accessors) have no source to change.
    if (elements.getOrigin(method) != Elements.Origin.EXPLICIT || !methods.add(method)) {
      return;
    }
    TreePath declaration = declarations.declarationOf(method);
    if (declaration == null) {
      return;
    }
    reachFrom(declaration, owner);
  }

  /**
   * Adds what creating an object of {@code type}, a class aggregate or a nested class, runs besides the
   * constructor called: its instance initializers (a nested enum's constants among them, with the
   * constructors they call), and every constructor of a nested class it extends ({@code super(...)}, or
   * implicitly). A record aggregate has no instance initializers, so nothing is added for it.
   */
  private void create(TypeElement type) {
    if (!created.add(type)) {
      return;
    }
    for (TreePath initializer : declarations.creationInitializersOf(type)) {
      reachFrom(initializer, type);
    }
    // Only the source's classes have their constructors declared: a superclass elsewhere adds nothing.
    if (type.getSuperclass() instanceof DeclaredType superclass) {
      for (ExecutableElement constructor : declarations.methods()) {
        if (constructor.getKind() == ElementKind.CONSTRUCTOR
            && constructor.getEnclosingElement().equals(superclass.asElement())) {
          reach(constructor);
        }
      }
    }
  }

  /**
   * Adds what the initializers of the static fields read use, until nothing more is added: the other
   * static fields they read ({@code BONUS = BASE + 1}) and the methods and constructors they call, with
   * what those read in turn; and the same of the static initializer blocks of each class whose fields are
   * read, which may set them ({@code static { MAX = limit(); }}).
   */
  private void readStaticInitializers() {
    Set<String> scanned = new HashSet<>();
    Set<TypeElement> blocksScanned = new HashSet<>();
    for (boolean more = true; more; ) {
      more = false;
      for (String key : List.copyOf(staticsRead)) {
        AggregateDeclarations.StaticField field = declarations.staticFields().get(key);
        if (field != null && scanned.add(key)) {
          more = true;
          reachFrom(field.path(), field.owner());
          if (blocksScanned.add(field.owner())) {
            for (TreePath block : declarations.staticBlocksOf(field.owner())) {
              reachFrom(block, field.owner());
            }
          }
        }
      }
    }
  }

  /** Reaches what the code at {@code code}, a member of {@code owner}, calls. */
  private void reachFrom(TreePath code, TypeElement owner) {
    for (ExecutableElement callee : calls.callsIn(code, owner, staticsRead, enumsNamed)) {
      reach(callee);
    }
  }
}
