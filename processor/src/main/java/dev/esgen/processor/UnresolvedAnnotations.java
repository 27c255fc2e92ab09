package dev.esgen.processor;

import com.sun.source.tree.AnnotationTree;
import com.sun.source.tree.ClassTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.ModifiersTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.VariableTree;
import com.sun.source.util.TreePath;
import com.sun.source.util.Trees;
import java.util.Set;
import javax.lang.model.element.TypeElement;
import javax.lang.model.type.TypeKind;
import javax.lang.model.type.TypeMirror;

/**
 * Finds the annotations javac could not resolve on a type compiled here, such as {@code @AggregateId}
 * written without its import. javac leaves them out of the elements' annotations, so judged by its
 * elements alone the aggregate would draw errors asking for annotations that are there; the source trees
 * still have them. Under another compiler than javac there are no trees, and nothing is found.
 */
final class UnresolvedAnnotations {

  private final Trees trees;

  /** @param trees javac's trees, or null under another compiler */
  UnresolvedAnnotations(Trees trees) {
    this.trees = trees;
  }

  /**
   * Adds {@code "@Name"} for each unresolved annotation on {@code type}, on its fields, record components
   * and methods, and on the methods' parameters; nested types are looked at on their own.
   */
  void addIn(TypeElement type, Set<String> missing) {
    TreePath path = trees == null ? null : trees.getPath(type);
    if (path == null || !(path.getLeaf() instanceof ClassTree declaration)) {
      return; // read from a class file: javac resolved what it holds when it compiled it
    }
    addIn(path, declaration.getModifiers(), missing);
    for (Tree member : declaration.getMembers()) {
      if (member instanceof VariableTree field) {
        addIn(path, field.getModifiers(), missing);
      } else if (member instanceof MethodTree method) {
        addIn(path, method.getModifiers(), missing);
        for (VariableTree parameter : method.getParameters()) {
          addIn(path, parameter.getModifiers(), missing);
        }
      }
    }
  }

  private void addIn(TreePath type, ModifiersTree modifiers, Set<String> missing) {
    for (AnnotationTree annotation : modifiers.getAnnotations()) {
      // Declarations and their annotations are attributed before processors run: an annotation javac could
      // not resolve has an error type.
      TypeMirror resolved = trees.getTypeMirror(new TreePath(type, annotation));
      if (resolved == null || resolved.getKind() == TypeKind.ERROR) {
        missing.add("@" + annotation.getAnnotationType());
      }
    }
  }
}
