package dev.esgen.processor;

import com.palantir.javapoet.ClassName;
import dev.esgen.processor.StoredTypeModel.UpcastModel;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import javax.lang.model.element.TypeElement;
import javax.lang.model.util.Elements;

/**
 * Checks that the generated repository can name the types of the unnamed package it uses. Inside
 * {@code FooRepository} its nested classes ({@code Keys}, {@code Replay}, ...) hide every top-level type
 * of the same simple name. JavaPoet then writes the hidden type's qualified name, which works in any
 * named package; but a type in the unnamed package has no qualified name (JLS 6.7), so no code inside
 * the repository can refer to it.
 */
final class UnnamedPackageNames {

  private final Elements elements;
  private final ErrorReporter errors;

  UnnamedPackageNames(Elements elements, ErrorReporter errors) {
    this.elements = elements;
    this.errors = errors;
  }

  /** Reports each hidden type, on that type; whether there was none. */
  boolean check(AggregateModel model) {
    if (!model.type().packageName().isEmpty()) {
      return true;
    }
    Set<String> nested = new LinkedHashSet<>(GeneratedTypes.NESTED);
    if (model.columns().isEmpty()) {
      nested.remove("IndexColumns");
    }
    Set<String> hidden = new LinkedHashSet<>();
    for (ClassName used : usedTypes(model)) {
      String topLevel = used.simpleNames().get(0);
      if (used.packageName().isEmpty() && nested.contains(topLevel) && hidden.add(topLevel)) {
        TypeElement element = elements.getTypeElement(topLevel);
        errors.error(element != null ? element : model.element(), Messages.hiddenInUnnamedPackage(
            topLevel, GeneratedTypes.nestedName(model.type(), topLevel), AggregateAnalyzer.display(model.element())));
      }
    }
    return hidden.isEmpty();
  }

  /** The user's types the generated repository names: the aggregate, its events, id, columns and upcasters. */
  private static List<ClassName> usedTypes(AggregateModel model) {
    List<ClassName> used = new ArrayList<>(List.of(model.type(), model.eventsType(), model.id().type(),
        model.creator().parameterType()));
    model.events().forEach(event -> used.add(event.type()));
    model.handlers().forEach(handler -> used.add(handler.parameterType()));
    for (ColumnModel column : model.columns()) {
      if (column.type() instanceof ClassName type) {
        used.add(type);
      }
    }
    List<StoredTypeModel> stored = new ArrayList<>(model.evolution().current().values());
    stored.addAll(model.evolution().retired());
    for (StoredTypeModel type : stored) {
      type.upcasts().stream().map(UpcastModel::owner).forEach(used::add);
    }
    return used;
  }
}
