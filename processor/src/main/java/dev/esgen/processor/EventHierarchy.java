package dev.esgen.processor;

import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import javax.lang.model.element.TypeElement;

/**
 * The sealed event hierarchy: every sealed level (root included) and the concrete events, and the
 * permitted types that were reported as unfit to be events (enums, non-sealed types).
 */
final class EventHierarchy {
  final TypeElement root;
  final Set<TypeElement> sealedLevels = new LinkedHashSet<>();
  final Set<TypeElement> leaves = new LinkedHashSet<>();
  final Set<TypeElement> rejected = new LinkedHashSet<>();
  final Map<TypeElement, Set<TypeElement>> leavesUnder = new HashMap<>();

  EventHierarchy(TypeElement root) {
    this.root = root;
  }

  boolean contains(TypeElement type) {
    return sealedLevels.contains(type) || leaves.contains(type);
  }
}
