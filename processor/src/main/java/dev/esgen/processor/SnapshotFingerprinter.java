package dev.esgen.processor;

import com.sun.source.tree.BlockTree;
import com.sun.source.tree.ClassTree;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.MemberReferenceTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.NewClassTree;
import com.sun.source.tree.ParameterizedTypeTree;
import com.sun.source.tree.Scope;
import com.sun.source.tree.Tree;
import com.sun.source.tree.VariableTree;
import com.sun.source.util.TreePath;
import com.sun.source.util.TreePathScanner;
import com.sun.source.util.Trees;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.annotation.processing.ProcessingEnvironment;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.TypeElement;
import javax.lang.model.element.VariableElement;
import javax.lang.model.type.DeclaredType;
import javax.lang.model.type.TypeMirror;
import javax.lang.model.util.ElementFilter;
import javax.lang.model.util.Elements;
import javax.lang.model.util.Types;

/**
 * Computes the fingerprint a snapshot is stored with: a hash of what decides the stored state, so that a
 * snapshot written by other code is recognised and rebuilt from the events.
 *
 * <ul>
 *   <li>the <b>state shape</b> ({@link StateShape}): the aggregate's components (or a class's instance
 *       fields, inherited ones included) with their full types and Jackson annotations, and recursively
 *       those of the records, classes, enums and sealed types they use, except the JDK's, with the
 *       Jackson annotations on the types themselves and on enum constants, and the domain's types behind
 *       wildcards;</li>
 *   <li>the <b>handler code</b>: the source of the creating and {@code apply} methods and of every method
 *       and constructor of the aggregate and of the classes nested in it that they call, directly or
 *       not, and the declarations of the static fields of the aggregate and its nested classes they
 *       read (with what those initializers use, and the static initializer blocks of their classes), and
 *       what creating the objects they create of a class aggregate or a nested class runs besides
 *       (instance initializers, a nested enum's constants, a nested superclass's constructors), with
 *       comments and layout removed ({@link DeclarationText}; under another compiler than javac, their
 *       signatures only), and the order of the constants of the nested enums they name or the handled
 *       events hold;</li>
 *   <li>the upcasters' signatures (which stored type and version they read, what they return), and
 *       {@code @Aggregate(snapshotVersion)}.</li>
 * </ul>
 *
 * Code outside the aggregate and its nested classes is not in it (not even a class beside it in its
 * file): the fingerprint must be the same whether a build compiles every file or, incrementally, only
 * the aggregate's, and only the aggregate's own source is certain to be at hand. {@code snapshotVersion}
 * covers the rest.
 */
final class SnapshotFingerprinter {

  /** Names the scheme, so that a later change of what is hashed makes every older fingerprint stale. */
  private static final String SCHEME = "esgen-snapshot-fingerprint-1";

  private final Elements elements;
  private final Trees trees;
  private final Types types;
  private final DeclarationText text;

  SnapshotFingerprinter(ProcessingEnvironment environment) {
    this.elements = environment.getElementUtils();
    this.trees = treesOf(environment);
    this.types = environment.getTypeUtils();
    this.text = new DeclarationText(trees);
  }

  /** javac's trees of {@code environment}, or null under another compiler. */
  static Trees treesOf(ProcessingEnvironment environment) {
    try {
      return Trees.instance(environment);
    } catch (IllegalArgumentException notJavac) {
      // Eclipse's compiler, for one: the handlers are fingerprinted by their signatures only.
      return null;
    }
  }

  /**
   * The fingerprint of {@code aggregate}: 11 characters of URL-safe Base64, 64 bits of a SHA-256.
   *
   * @param handlers the creating method, then the {@code apply} handlers, in declaration order
   * @param upcasters every upcaster of the aggregate's events
   */
  String fingerprint(TypeElement aggregate, List<ExecutableElement> handlers, List<ExecutableElement> upcasters,
      int snapshotVersion) {
    StringBuilder described = new StringBuilder(SCHEME).append("\nshape ");
    StateShape shape = StateShape.write(types, aggregate, described);
    Declarations declared = declarations(aggregate);
    Set<ExecutableElement> code = new LinkedHashSet<>();
    Set<String> read = new HashSet<>();
    Set<TypeElement> constructed = new HashSet<>();
    Set<TypeElement> named = new HashSet<>();
    for (ExecutableElement handler : handlers) {
      reach(handler, aggregate, declared, code, read, constructed, named);
    }
    readInitializers(aggregate, declared, code, read, constructed, named);
    for (ExecutableElement method : code) {
      described.append("\ncode ").append(text.of(method, declared.methods().get(method)));
    }
    // What creating the objects of a class aggregate or a nested class runs besides its constructors, only for
    // those the code creates.
    declared.initializers().forEach((type, paths) -> {
      if (constructed.contains(type)) {
        paths.forEach(path -> described.append("\ninit ").append(text.of(path)));
      }
    });
    // The static fields the code reads (a constant a handler adds), the aggregate's and its nested classes',
    // after the code and only when it reads any, so that the fingerprints of all other aggregates stay as
    // they were.
    declared.statics().forEach((key, field) -> {
      if (read.contains(key)) {
        described.append("\nstatic ").append(text.of(field.path()));
      }
    });
    // A static initializer block may set what those fields hold: those of each class whose fields the code reads.
    Set<TypeElement> initialized = staticOwners(read, declared);
    declared.staticBlocks().forEach((owner, blocks) -> {
      if (initialized.contains(owner)) {
        blocks.forEach(block -> described.append("\nstatic-block ").append(text.of(block)));
      }
    });
    // A nested enum's ordinals, values() and compareTo follow its constants' order: that of each one the code
    // names or a handled event holds, unless written already (in the state's shape, or as the constants'
    // source where the code creates its objects).
    Set<String> held = StateShape.typesHeldByEvents(types, aggregate, handlers);
    for (TypeElement nested : nestedEnums(declared)) {
      String name = nested.getQualifiedName().toString();
      if ((named.contains(nested) || held.contains(name)) && !shape.spellsOut(name) && !constructed.contains(nested)) {
        described.append("\nenum-order ").append(name).append(' ');
        constants(nested).forEach(constant -> described.append(constant.getSimpleName()).append(','));
      }
    }
    for (ExecutableElement upcaster : upcasters) {
      described.append("\nupcast ").append(DeclarationText.signature(upcaster));
      upcaster.getAnnotationMirrors().forEach(annotation -> described.append(' ').append(annotation));
    }
    described.append("\nsnapshotVersion ").append(snapshotVersion);
    return hash(described.toString());
  }

  // ---- the handlers' code

  /**
   * Where the members that code may use are declared in the aggregate's source: the methods and
   * constructors of the aggregate and of the classes nested in it (at any depth), and their static
   * fields by {@link Field#key}, in declaration order; the nested classes by simple name; what creating
   * an object of a class aggregate or of a nested class runs besides its constructor (its instance fields' initializers and
   * initializer blocks, and a nested enum's constants, which create its objects); and the nested enums
   * whose constants run code of the source (with arguments or a body, a constructor, an initializer), by
   * each name that uses them (theirs, their constants' and their instance fields'); the static initializer
   * blocks of the aggregate and its nested classes, by class, in declaration order; and every nested enum
   * by its name and each of its constants' names, through which code may depend on the constants' order.
   */
  private record Declarations(Map<ExecutableElement, TreePath> methods, Map<String, Field> statics,
      Map<String, List<TypeElement>> nested, Map<TypeElement, List<TreePath>> initializers,
      Map<String, Set<TypeElement>> enums, Map<TypeElement, List<TreePath>> staticBlocks,
      Map<String, Set<TypeElement>> enumsNamed) {}

  /** A static field {@code name} of {@code owner} (the aggregate or a class nested in it), declared at {@code path}. */
  private record Field(TypeElement owner, String name, TreePath path) {

    /**
     * The aggregate's fields by their names, as before nested classes' counted, so that the order their
     * initializers are read in (and the fingerprint) stays; a nested class's by its class's name too.
     */
    String key(TypeElement aggregate) {
      return owner.equals(aggregate) ? name : owner.getQualifiedName() + "." + name;
    }
  }

  /**
   * The methods, constructors and static fields the aggregate's source declares, with where each is
   * declared; empty when the source is not at hand. One walk over the classes' members: asking javac for
   * each member's path searches the whole compilation unit every time.
   */
  private Declarations declarations(TypeElement aggregate) {
    Declarations declarations = new Declarations(new LinkedHashMap<>(), new LinkedHashMap<>(), new LinkedHashMap<>(),
        new LinkedHashMap<>(), new HashMap<>(), new LinkedHashMap<>(), new HashMap<>());
    TreePath type = trees == null ? null : trees.getPath(aggregate);
    if (type != null && type.getLeaf() instanceof ClassTree) {
      declare(type, aggregate, aggregate, declarations);
    }
    declarations.initializers().forEach((nested, paths) -> {
      boolean constructs = paths.stream().anyMatch(path -> !plainConstant(path.getLeaf()))
          || ElementFilter.constructorsIn(nested.getEnclosedElements()).stream()
              .anyMatch(constructor -> elements.getOrigin(constructor) == Elements.Origin.EXPLICIT);
      if (nested.getKind() == ElementKind.ENUM && constructs) {
        declarations.enums().computeIfAbsent(nested.getSimpleName().toString(), name -> new LinkedHashSet<>())
            .add(nested);
        for (VariableElement field : ElementFilter.fieldsIn(nested.getEnclosedElements())) {
          if (!field.getModifiers().contains(Modifier.STATIC) || field.getKind() == ElementKind.ENUM_CONSTANT) {
            declarations.enums().computeIfAbsent(field.getSimpleName().toString(), name -> new LinkedHashSet<>())
                .add(nested);
          }
        }
      }
    });
    for (TypeElement nested : nestedEnums(declarations)) {
      declarations.enumsNamed().computeIfAbsent(nested.getSimpleName().toString(), name -> new LinkedHashSet<>())
          .add(nested);
      for (Element constant : constants(nested)) {
        declarations.enumsNamed().computeIfAbsent(constant.getSimpleName().toString(), name -> new LinkedHashSet<>())
            .add(nested);
      }
    }
    return declarations;
  }

  /** The enums nested in the aggregate, at any depth, in declaration order. */
  private static List<TypeElement> nestedEnums(Declarations declarations) {
    return declarations.nested().values().stream().flatMap(List::stream)
        .filter(nested -> nested.getKind() == ElementKind.ENUM)
        .toList();
  }

  /** The constants of {@code type}, an enum, in declaration order: the order of their ordinals. */
  private static List<Element> constants(TypeElement type) {
    return type.getEnclosedElements().stream()
        .filter(member -> member.getKind() == ElementKind.ENUM_CONSTANT)
        .map(Element.class::cast)
        .toList();
  }

  /** Adds the members of the class at {@code type}, and those of the classes nested in it, to {@code declarations}. */
  private void declare(TreePath type, TypeElement owner, TypeElement aggregate, Declarations declarations) {
    for (Tree member : ((ClassTree) type.getLeaf()).getMembers()) {
      TreePath path = new TreePath(type, member);
      if (member instanceof MethodTree) {
        // A declaration carries its symbol from the start: this attributes nothing.
        if (trees.getElement(path) instanceof ExecutableElement method) {
          declarations.methods().put(method, path);
        }
      } else if (member instanceof ClassTree) {
        if (trees.getElement(path) instanceof TypeElement nested) {
          declarations.nested().computeIfAbsent(nested.getSimpleName().toString(), name -> new ArrayList<>())
              .add(nested);
          declare(path, nested, aggregate, declarations);
        }
      } else if (member instanceof BlockTree block && block.isStatic()) {
        declarations.staticBlocks().computeIfAbsent(owner, initialized -> new ArrayList<>()).add(path);
      } else if (runsOnCreation(path)) {
        declarations.initializers().computeIfAbsent(owner, nested -> new ArrayList<>()).add(path);
      } else if (member instanceof VariableTree field && field.getModifiers().getFlags().contains(Modifier.STATIC)) {
        Field declared = new Field(owner, field.getName().toString(), path);
        declarations.statics().put(declared.key(aggregate), declared);
      }
    }
  }

  /**
   * Whether the member at {@code path} runs when an object of its class is created: an instance initializer
   * block, an instance field's initializer, an enum constant.
   */
  private boolean runsOnCreation(TreePath path) {
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

  /**
   * Adds {@code method} and, when its source is at hand, the methods and constructors of the aggregate and
   * of its nested classes that it calls, directly or not.
   *
   * <p>Calls are matched to those methods by name and number of arguments where the source says whose
   * method it may be: an unqualified call, one on {@code this} or on the name of the aggregate's type or a
   * nested type, and {@code new} of one of them. Only a call on some other receiver whose name and arity
   * match (a helper called on a local variable of the aggregate's type, or {@code add} on a list beside an
   * {@code add} command) is decided by the receiver's type: a local variable, parameter or field named by
   * the receiver is looked up in javac's scope at the call, which attributes a copy of the method's body
   * only, and a method counts when its class and the variable's type are related; any other receiver
   * counts as any of them. Neither the class nor the method is attributed in place: javac would keep what
   * attribution adds to the trees (the implicit {@code super()} of a record's compact constructor, which it
   * then reports as an invalid explicit constructor call) into the next round. Matching an overload of the
   * same arity, or a receiver whose type is not looked up, takes in a little more code than the call needs,
   * never less.
   */
  private void reach(ExecutableElement method, TypeElement aggregate, Declarations declarations,
      Set<ExecutableElement> reached, Set<String> read, Set<TypeElement> constructed, Set<TypeElement> named) {
    TypeElement owner = (TypeElement) method.getEnclosingElement();
    // An implicit constructor runs the initializers too; an enum's objects are its constants, whatever creates them.
    if (method.getKind() == ElementKind.CONSTRUCTOR || owner.getKind() == ElementKind.ENUM) {
      construct(owner, aggregate, declarations, reached, read, constructed, named);
    }
    // Implicit members (a record's canonical constructor and accessors) have no source to change.
    if (elements.getOrigin(method) != Elements.Origin.EXPLICIT || !reached.add(method)) {
      return;
    }
    TreePath path = declarations.methods().get(method);
    if (path == null) {
      return;
    }
    for (ExecutableElement callee : calls(path, aggregate, owner, declarations, read, named)) {
      reach(callee, aggregate, declarations, reached, read, constructed, named);
    }
  }

  /**
   * Adds what creating an object of {@code type}, a class aggregate or a nested class, runs besides the
   * constructor called: its instance initializers (a nested enum's constants among them, with the
   * constructors they call), and every constructor of a nested class it extends ({@code super(...)}, or
   * implicitly). A record aggregate has no instance initializers, so nothing is added for it.
   */
  private void construct(TypeElement type, TypeElement aggregate, Declarations declarations,
      Set<ExecutableElement> reached, Set<String> read, Set<TypeElement> constructed, Set<TypeElement> named) {
    if (!constructed.add(type)) {
      return;
    }
    for (TreePath initializer : declarations.initializers().getOrDefault(type, List.of())) {
      for (ExecutableElement callee : calls(initializer, aggregate, type, declarations, read, named)) {
        reach(callee, aggregate, declarations, reached, read, constructed, named);
      }
    }
    // Only the source's classes have their constructors declared: a superclass elsewhere adds nothing.
    if (type.getSuperclass() instanceof DeclaredType superclass) {
      for (ExecutableElement constructor : List.copyOf(declarations.methods().keySet())) {
        if (constructor.getKind() == ElementKind.CONSTRUCTOR
            && constructor.getEnclosingElement().equals(superclass.asElement())) {
          reach(constructor, aggregate, declarations, reached, read, constructed, named);
        }
      }
    }
  }

  /**
   * The methods and constructors of the aggregate and its nested classes that the code at {@code path} (a
   * method of {@code owner}'s, or a static field's initializer) calls or references, as {@link #reach}
   * matches them; the static fields it reads go to {@code read}, the nested enums it names (or one of
   * whose constants it names) to {@code named}.
   */
  private List<ExecutableElement> calls(TreePath path, TypeElement aggregate, TypeElement owner,
      Declarations declarations, Set<String> read, Set<TypeElement> named) {
    Map<ExecutableElement, TreePath> declared = declarations.methods();
    String typeName = aggregate.getSimpleName().toString();
    // javac's scope inside an enum constant's body attributes that body's class into the enum, which javac
    // 25 then reports as not permitted to extend it: there every receiver counts as any class's.
    // (Asked for the element of an initializer block, javac would attribute its class in place.)
    boolean constant = path.getLeaf() instanceof VariableTree variable
        && variable.getModifiers().getFlags().contains(Modifier.STATIC)
        && declarations.initializers().getOrDefault(owner, List.of()).contains(path);
    List<ExecutableElement> called = new ArrayList<>();
    new TreePathScanner<Void, Void>() {
      @Override
      public Void visitMethodInvocation(MethodInvocationTree node, Void unused) {
        ExpressionTree select = node.getMethodSelect();
        String name = simpleName(select);
        if (name.equals("this")) {
          add(constructors(List.of(owner), node.getArguments().size()), null);
        } else if (!name.equals("super")) {
          ExpressionTree receiver = select instanceof MemberSelectTree qualified ? qualified.getExpression() : null;
          add(methods(name, node.getArguments().size()), receiver);
        }
        return super.visitMethodInvocation(node, unused);
      }

      @Override
      public Void visitNewClass(NewClassTree node, Void unused) {
        Tree created = node.getIdentifier() instanceof ParameterizedTypeTree generic ? generic.getType() : node.getIdentifier();
        add(constructors(typesNamed(simpleName(created)), node.getArguments().size()), null);
        return super.visitNewClass(node, unused);
      }

      /**
       * A name that may be one of the static fields: the aggregate's; a nested class's where the aggregate
       * declares none of that name or in a nested class's code (which sees its own fields first). A local
       * of that name counts too, never less.
       */
      @Override
      public Void visitIdentifier(IdentifierTree node, Void unused) {
        String name = node.getName().toString();
        constructs(name);
        named.addAll(declarations.enumsNamed().getOrDefault(name, Set.of()));
        boolean aggregates = declarations.statics().containsKey(name);
        declarations.statics().forEach((key, field) -> {
          if (field.name().equals(name)
              && (field.owner().equals(aggregate) || !aggregates || !owner.equals(aggregate))) {
            read.add(key);
          }
        });
        return super.visitIdentifier(node, unused);
      }

      /** A static field read through a receiver: the aggregate's on its own, a nested class's on any other. */
      @Override
      public Void visitMemberSelect(MemberSelectTree node, Void unused) {
        String name = node.getIdentifier().toString();
        constructs(name);
        named.addAll(declarations.enumsNamed().getOrDefault(name, Set.of()));
        declarations.statics().forEach((key, field) -> {
          if (field.name().equals(name) && (field.owner().equals(aggregate) ? ownReceiver(node.getExpression())
              : !simpleName(node.getExpression()).equals(typeName))) {
            read.add(key);
          }
        });
        return super.visitMemberSelect(node, unused);
      }

      @Override
      public Void visitMemberReference(MemberReferenceTree node, Void unused) {
        ExpressionTree qualifier = node.getQualifierExpression();
        if (node.getMode() == MemberReferenceTree.ReferenceMode.NEW) {
          Tree created = qualifier instanceof ParameterizedTypeTree generic ? generic.getType() : qualifier;
          add(constructors(typesNamed(simpleName(created)), -1), null);
        } else {
          add(methods(node.getName().toString(), -1), qualifier);
        }
        return super.visitMemberReference(node, unused);
      }

      /**
       * A name that uses a nested enum whose constants run code (its own, a constant's or an instance
       * field's): its constants are created by its constructors, whichever the code uses.
       */
      private void constructs(String name) {
        for (TypeElement used : declarations.enums().getOrDefault(name, Set.of())) {
          add(constructors(List.of(used), -1), null);
        }
      }

      /** Whether {@code receiver} is this aggregate: {@code this} or its type's name. */
      private boolean ownReceiver(ExpressionTree receiver) {
        String name = simpleName(receiver);
        return name.equals("this") || name.equals(typeName);
      }

      /** The aggregate and its nested classes named {@code name}: those {@code new} of that name may create. */
      private List<TypeElement> typesNamed(String name) {
        List<TypeElement> named = new ArrayList<>(declarations.nested().getOrDefault(name, List.of()));
        if (name.equals(typeName)) {
          named.add(aggregate);
        }
        return named;
      }

      /** The constructors of {@code types} that take {@code arguments} (any number, when negative). */
      private List<ExecutableElement> constructors(List<TypeElement> types, int arguments) {
        return matching(ElementKind.CONSTRUCTOR, null, arguments).stream()
            .filter(constructor -> types.contains((TypeElement) constructor.getEnclosingElement()))
            .toList();
      }

      /** The methods named {@code name} that take {@code arguments} (any number, when negative). */
      private List<ExecutableElement> methods(String name, int arguments) {
        return matching(ElementKind.METHOD, name, arguments);
      }

      private List<ExecutableElement> matching(ElementKind kind, String name, int arguments) {
        List<ExecutableElement> matching = new ArrayList<>();
        for (ExecutableElement candidate : declared.keySet()) {
          if (candidate.getKind() == kind && (name == null || candidate.getSimpleName().contentEquals(name))
              && (arguments < 0 || accepts(candidate, arguments))) {
            matching.add(candidate);
          }
        }
        return matching;
      }

      /**
       * Adds {@code candidates}: all of them, except where {@code receiver} is a variable whose declared type
       * is known: then those of a class related to that type.
       */
      private void add(List<ExecutableElement> candidates, ExpressionTree receiver) {
        if (candidates.isEmpty() || !(receiver instanceof IdentifierTree identifier)
            || ownReceiver(receiver)) {
          called.addAll(candidates);
          return;
        }
        TypeMirror variable = declaredType(identifier.getName().toString());
        for (ExecutableElement candidate : candidates) {
          if (variable == null || related(candidate.getEnclosingElement().asType(), variable)) {
            called.add(candidate);
          }
        }
      }

      /**
       * Whether an object of one of the two types may be of the other ({@code List} and the aggregate are
       * not): one is the other's subtype, or one is an interface the other's subclasses may implement (a
       * nested class's method is called on an interface it does not implement when a subclass does).
       */
      private boolean related(TypeMirror type, TypeMirror other) {
        TypeMirror a = types.erasure(type);
        TypeMirror b = types.erasure(other);
        return types.isAssignable(a, b) || types.isAssignable(b, a) || (isInterface(a) && open(b))
            || (isInterface(b) && open(a));
      }

      private static boolean isInterface(TypeMirror type) {
        return type instanceof DeclaredType declared && declared.asElement().getKind().isInterface();
      }

      /** Whether subclasses of {@code type} may implement any interface: an interface, or a class not final. */
      private static boolean open(TypeMirror type) {
        return type instanceof DeclaredType declared && (declared.asElement().getKind().isInterface()
            || (declared.asElement().getKind() == ElementKind.CLASS
                && !declared.asElement().getModifiers().contains(Modifier.FINAL)));
      }

      /**
       * The declared type of the variable {@code name} at the current call, or null when javac's scope there
       * declares none of that name (a type's name, say), or in an enum constant. {@code Trees.getScope}
       * attributes a copy of the method's body, never the trees javac compiles afterwards.
       */
      private TypeMirror declaredType(String name) {
        if (constant) {
          return null;
        }
        for (Scope scope = trees.getScope(getCurrentPath()); scope != null; scope = scope.getEnclosingScope()) {
          for (Element element : scope.getLocalElements()) {
            if (element instanceof VariableElement variable && variable.getSimpleName().contentEquals(name)) {
              return variable.asType();
            }
          }
        }
        return null;
      }
    }.scan(path, null);
    return called;
  }

  /**
   * Adds what the initializers of the static fields in {@code read} use, until nothing more is added:
   * the other static fields they read ({@code BONUS = BASE + 1}) and the methods and constructors they
   * call, matched as in the handlers' code, with what those read in turn; and the same of the static
   * initializer blocks of each class whose fields are read, which may set them ({@code static { MAX = limit(); }}).
   */
  private void readInitializers(TypeElement aggregate, Declarations declarations, Set<ExecutableElement> code,
      Set<String> read, Set<TypeElement> constructed, Set<TypeElement> named) {
    Set<String> scanned = new HashSet<>();
    Set<TypeElement> blocksScanned = new HashSet<>();
    for (boolean more = true; more; ) {
      more = false;
      for (String key : List.copyOf(read)) {
        Field field = declarations.statics().get(key);
        if (field != null && scanned.add(key)) {
          more = true;
          for (ExecutableElement callee : calls(field.path(), aggregate, field.owner(), declarations, read, named)) {
            reach(callee, aggregate, declarations, code, read, constructed, named);
          }
          if (blocksScanned.add(field.owner())) {
            for (TreePath block : declarations.staticBlocks().getOrDefault(field.owner(), List.of())) {
              for (ExecutableElement callee : calls(block, aggregate, field.owner(), declarations, read, named)) {
                reach(callee, aggregate, declarations, code, read, constructed, named);
              }
            }
          }
        }
      }
    }
  }

  /** The classes that declare the static fields in {@code read}: those whose static initializer blocks count. */
  private static Set<TypeElement> staticOwners(Set<String> read, Declarations declarations) {
    Set<TypeElement> owners = new HashSet<>();
    for (String key : read) {
      Field field = declarations.statics().get(key);
      if (field != null) {
        owners.add(field.owner());
      }
    }
    return owners;
  }

  /** The simple name an expression ends in: {@code foo} of {@code foo}, {@code this.foo} or {@code a.b.foo}. */
  private static String simpleName(Tree expression) {
    if (expression instanceof IdentifierTree identifier) {
      return identifier.getName().toString();
    }
    if (expression instanceof MemberSelectTree select) {
      return select.getIdentifier().toString();
    }
    return "";
  }

  private static boolean accepts(ExecutableElement method, int arguments) {
    int parameters = method.getParameters().size();
    return method.isVarArgs() ? arguments >= parameters - 1 : arguments == parameters;
  }

  private static String hash(String described) {
    try {
      byte[] digest = MessageDigest.getInstance("SHA-256").digest(described.getBytes(StandardCharsets.UTF_8));
      return Base64.getUrlEncoder().withoutPadding().encodeToString(Arrays.copyOf(digest, 8));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java platform has SHA-256", e);
    }
  }
}
