package dev.esgen.processor;

import static dev.esgen.processor.AggregateAnalyzer.display;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.TypeElement;
import javax.lang.model.type.TypeKind;
import javax.lang.model.type.TypeMirror;
import javax.lang.model.util.ElementFilter;
import javax.lang.model.util.Elements;
import javax.lang.model.util.Types;

/**
 * Finds an aggregate's event handlers ({@code apply} methods) and its creating method, checks their
 * shapes, and checks that every concrete event is handled exactly once.
 */
final class HandlerAnalyzer {

  private final Elements elements;
  private final Types types;
  private final ErrorReporter errors;

  HandlerAnalyzer(Elements elements, Types types, ErrorReporter errors) {
    this.elements = elements;
    this.types = types;
    this.errors = errors;
  }

  /** A handler or creating method and the event type it takes. */
  record Handler(ExecutableElement method, TypeElement event) {}

  static final class Handlers {
    final List<Handler> handlers = new ArrayList<>();
    final Map<TypeElement, Handler> appliedBy = new LinkedHashMap<>();
    Handler creator;
    Set<TypeElement> creatorLeaves = Set.of();
  }

  Handlers checkHandlers(TypeElement type, AnnotationMirror aggregate, String simpleName, EventHierarchy events) {
    Handlers result = new Handlers();
    List<Handler> creators = new ArrayList<>();
    String rootName = display(events.root);
    for (ExecutableElement method : ElementFilter.methodsIn(type.getEnclosedElements())) {
      boolean isStatic = method.getModifiers().contains(Modifier.STATIC);
      TypeElement event = eventParameter(method, events);
      if (method.getSimpleName().contentEquals("apply")) {
        String problem = null;
        if (isStatic) {
          problem = "is static";
        } else if (method.getParameters().size() != 1) {
          problem = "takes " + method.getParameters().size() + " parameters";
        } else if (event == null) {
          problem = "takes " + method.getParameters().get(0).asType() + ", which is not an event of " + rootName;
        } else if (!returnsAggregate(method, type)) {
          problem = "returns " + method.getReturnType();
        }
        if (problem != null) {
          errors.error(method, Messages.handlerShape(simpleName, rootName, problem));
        } else if (method.getModifiers().contains(Modifier.PRIVATE)) {
          errors.error(method, Messages.handlerPrivate(simpleName));
        } else {
          Handler handler = new Handler(method, event);
          checkedException(method).ifPresent(thrown ->
              errors.error(method, Messages.handlerThrows(signature(handler), thrown)));
          result.handlers.add(handler);
        }
      } else if (isStatic && event != null && returnsAggregate(method, type)) {
        creators.add(new Handler(method, event));
      }
    }

    for (Handler handler : result.handlers) {
      List<String> overlap = new ArrayList<>();
      Handler other = null;
      for (TypeElement leaf : events.leavesUnder.get(handler.event())) {
        Handler owner = result.appliedBy.putIfAbsent(leaf, handler);
        if (owner != null) {
          overlap.add(display(leaf));
          other = owner;
        }
      }
      if (other != null) {
        errors.error(handler.method(), Messages.duplicateHandler(signature(handler), overlap, signature(other)));
      }
    }

    if (creators.isEmpty()) {
      String example = events.leaves.isEmpty() ? rootName : display(events.leaves.iterator().next());
      errors.error(type, aggregate, Messages.noCreator(simpleName, example));
      return result;
    }
    result.creator = creators.get(0);
    result.creatorLeaves = events.leavesUnder.get(result.creator.event());
    if (result.creator.method().getModifiers().contains(Modifier.PRIVATE)) {
      errors.error(result.creator.method(), Messages.creatorPrivate(simpleName));
    }
    checkedException(result.creator.method()).ifPresent(thrown ->
        errors.error(result.creator.method(), Messages.handlerThrows(signature(result.creator), thrown)));
    for (Handler extra : creators.subList(1, creators.size())) {
      errors.error(extra.method(), Messages.duplicateCreator(signature(extra), signature(result.creator)));
    }
    for (TypeElement leaf : events.leaves) {
      if (!result.appliedBy.containsKey(leaf) && !result.creatorLeaves.contains(leaf)) {
        errors.error(type, aggregate, Messages.noHandler(display(leaf), simpleName));
      }
    }
    return result;
  }

  /** The first checked exception {@code method} declares: replay implements an interface that throws none. */
  private Optional<String> checkedException(ExecutableElement method) {
    TypeElement runtime = elements.getTypeElement("java.lang.RuntimeException");
    TypeElement error = elements.getTypeElement("java.lang.Error");
    for (TypeMirror thrown : method.getThrownTypes()) {
      if (!types.isSubtype(thrown, runtime.asType()) && !types.isSubtype(thrown, error.asType())) {
        return Optional.of(thrown.toString());
      }
    }
    return Optional.empty();
  }

  private TypeElement eventParameter(ExecutableElement method, EventHierarchy events) {
    if (method.getParameters().size() != 1) {
      return null;
    }
    TypeMirror parameter = method.getParameters().get(0).asType();
    if (parameter.getKind() != TypeKind.DECLARED) {
      return null;
    }
    TypeElement element = (TypeElement) types.asElement(parameter);
    return events.contains(element) ? element : null;
  }

  private boolean returnsAggregate(ExecutableElement method, TypeElement type) {
    return types.isSameType(types.erasure(method.getReturnType()), types.erasure(type.asType()));
  }

  private static String signature(Handler handler) {
    return handler.method().getSimpleName() + "(" + display(handler.event()) + ")";
  }
}
