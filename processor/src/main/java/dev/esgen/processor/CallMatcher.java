package dev.esgen.processor;

import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.MemberReferenceTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.NewClassTree;
import com.sun.source.tree.ParameterizedTypeTree;
import com.sun.source.tree.Scope;
import com.sun.source.tree.Tree;
import com.sun.source.tree.VariableTree;
import com.sun.source.util.TreePath;
import com.sun.source.util.TreePathScanner;
import com.sun.source.util.Trees;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.TypeElement;
import javax.lang.model.element.VariableElement;
import javax.lang.model.type.DeclaredType;
import javax.lang.model.type.TypeMirror;
import javax.lang.model.util.Types;

/**
 * Matches what one declaration of the aggregate's source calls, reads and names to what that source
 * declares, without compiling it.
 *
 * <p>Calls are matched to the methods and constructors of the aggregate and its nested classes by name and
 * number of arguments where the source says whose method it may be: an unqualified call, one on
 * {@code this} or on the name of the aggregate's type or a nested type, and {@code new} of one of them.
 * Only a call on some other receiver whose name and arity match (a helper called on a local variable of
 * the aggregate's type, or {@code add} on a list beside an {@code add} command) is decided by the
 * receiver's type: a local variable, parameter or field named by the receiver is looked up in javac's
 * scope at the call, which attributes a copy of the method's body only, and a method counts when its
 * class and the variable's type are related; any other receiver counts as any of them. Neither the class
 * nor the method is attributed in place: javac would keep what attribution adds to the trees (the
 * implicit {@code super()} of a record's compact constructor, which it then reports as an invalid explicit
 * constructor call) into the next round. Matching an overload of the same arity, or a receiver whose type
 * is not looked up, takes in a little more code than the call needs, never less.
 */
final class CallMatcher {

  private final Trees trees;
  private final Types types;
  private final AggregateDeclarations declarations;

  CallMatcher(Trees trees, Types types, AggregateDeclarations declarations) {
    this.trees = trees;
    this.types = types;
    this.declarations = declarations;
  }

  /**
   * The methods and constructors that the code at {@code code} (a member of {@code owner}: a method, a
   * field's initializer, an initializer block) calls or references; the keys of the static fields it
   * reads are added to {@code staticsRead}, the nested enums it names (or one of whose constants it
   * names) to {@code enumsNamed}.
   */
  List<ExecutableElement> callsIn(TreePath code, TypeElement owner, Set<String> staticsRead,
      Set<TypeElement> enumsNamed) {
    Scan scan = new Scan(code, owner, staticsRead, enumsNamed);
    scan.scan(code, null);
    return scan.called;
  }

  /** One walk over one declaration's code. */
  private final class Scan extends TreePathScanner<Void, Void> {

    private final TypeElement owner;
    private final Set<String> staticsRead;
    private final Set<TypeElement> enumsNamed;
    private final TypeElement aggregate = declarations.aggregate();
    private final String typeName = aggregate.getSimpleName().toString();
    /**
     * Whether the code is an enum constant. javac's scope inside an enum constant's body attributes that
     * body's class into the enum, which javac 25 then reports as not permitted to extend it: there every
     * receiver counts as any class's. (Asked for the element of an initializer block, javac would
     * attribute its class in place.)
     */
    private final boolean constant;
    private final List<ExecutableElement> called = new ArrayList<>();

    Scan(TreePath code, TypeElement owner, Set<String> staticsRead, Set<TypeElement> enumsNamed) {
      this.owner = owner;
      this.staticsRead = staticsRead;
      this.enumsNamed = enumsNamed;
      this.constant = code.getLeaf() instanceof VariableTree variable
          && variable.getModifiers().getFlags().contains(Modifier.STATIC)
          && declarations.creationInitializersOf(owner).contains(code);
    }

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
      add(constructors(declarations.typesNamed(simpleName(created)), node.getArguments().size()), null);
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
      usesEnumsNamedBy(name);
      boolean aggregateDeclaresIt = declarations.staticFields().containsKey(name);
      declarations.staticFields().forEach((key, field) -> {
        if (field.name().equals(name)
            && (field.owner().equals(aggregate) || !aggregateDeclaresIt || !owner.equals(aggregate))) {
          staticsRead.add(key);
        }
      });
      return super.visitIdentifier(node, unused);
    }

    /** A static field read through a receiver: the aggregate's on its own, a nested class's on any other. */
    @Override
    public Void visitMemberSelect(MemberSelectTree node, Void unused) {
      String name = node.getIdentifier().toString();
      usesEnumsNamedBy(name);
      declarations.staticFields().forEach((key, field) -> {
        if (field.name().equals(name) && (field.owner().equals(aggregate) ? ownReceiver(node.getExpression())
            : !simpleName(node.getExpression()).equals(typeName))) {
          staticsRead.add(key);
        }
      });
      return super.visitMemberSelect(node, unused);
    }

    @Override
    public Void visitMemberReference(MemberReferenceTree node, Void unused) {
      ExpressionTree qualifier = node.getQualifierExpression();
      if (node.getMode() == MemberReferenceTree.ReferenceMode.NEW) {
        Tree created = qualifier instanceof ParameterizedTypeTree generic ? generic.getType() : qualifier;
        add(constructors(declarations.typesNamed(simpleName(created)), -1), null);
      } else {
        add(methods(node.getName().toString(), -1), qualifier);
      }
      return super.visitMemberReference(node, unused);
    }

    /**
     * A name that may name a nested enum or one of its constants: the enum is named (its constants' order
     * counts), and an enum whose constants run code (its own, a constant's or an instance field's) has them
     * created by its constructors, whichever the code uses.
     */
    private void usesEnumsNamedBy(String name) {
      for (TypeElement used : declarations.codeRunningEnumsUsedBy(name)) {
        add(constructors(List.of(used), -1), null);
      }
      enumsNamed.addAll(declarations.enumsNamedBy(name));
    }

    /** Whether {@code receiver} is this aggregate: {@code this} or its type's name. */
    private boolean ownReceiver(ExpressionTree receiver) {
      String name = simpleName(receiver);
      return name.equals("this") || name.equals(typeName);
    }

    /** The constructors of {@code classes} that take {@code arguments} (any number, when negative). */
    private List<ExecutableElement> constructors(List<TypeElement> classes, int arguments) {
      return matching(ElementKind.CONSTRUCTOR, null, arguments).stream()
          .filter(constructor -> classes.contains((TypeElement) constructor.getEnclosingElement()))
          .toList();
    }

    /** The methods named {@code name} that take {@code arguments} (any number, when negative). */
    private List<ExecutableElement> methods(String name, int arguments) {
      return matching(ElementKind.METHOD, name, arguments);
    }

    private List<ExecutableElement> matching(ElementKind kind, String name, int arguments) {
      List<ExecutableElement> matching = new ArrayList<>();
      for (ExecutableElement candidate : declarations.methods()) {
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
}
