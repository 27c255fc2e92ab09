package dev.esgen.processor;

import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.tree.Tree;
import com.sun.source.util.SourcePositions;
import com.sun.source.util.TreePath;
import com.sun.source.util.Trees;
import java.io.IOException;
import javax.lang.model.element.ExecutableElement;

/**
 * The text a declaration is fingerprinted as: its source without comments and layout ({@link SourceText}),
 * so that reformatting changes nothing while any changed token does; a method's signature where its
 * source is not at hand.
 */
final class DeclarationText {

  private final Trees trees;

  /** @param trees javac's trees; null under another compiler, where only signatures are at hand */
  DeclarationText(Trees trees) {
    this.trees = trees;
  }

  /** {@code method}'s source, declared at {@code declaration}; its signature when that is null. */
  String of(ExecutableElement method, TreePath declaration) {
    return declaration == null ? signature(method) : of(declaration);
  }

  /** The source of the declaration at {@code declaration}. */
  String of(TreePath declaration) {
    CompilationUnitTree unit = declaration.getCompilationUnit();
    Tree tree = declaration.getLeaf();
    SourcePositions positions = trees.getSourcePositions();
    long start = positions.getStartPosition(unit, tree);
    long end = positions.getEndPosition(unit, tree);
    try {
      CharSequence text = unit.getSourceFile().getCharContent(true);
      if (start >= 0 && end <= text.length() && start < end) {
        return SourceText.normalized(text.subSequence((int) start, (int) end));
      }
    } catch (IOException unreadable) {
      // javac's own rendering of the tree is the next best thing
    }
    return SourceText.normalized(tree.toString());
  }

  /** Where {@code method} is declared, what it takes and what it returns. */
  static String signature(ExecutableElement method) {
    return method.getEnclosingElement() + "." + method + ":" + method.getReturnType();
  }
}
