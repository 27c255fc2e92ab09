package dev.esgen.processor;

import static dev.esgen.processor.AggregateAnalyzer.display;

import com.palantir.javapoet.ClassName;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.RecordComponentElement;
import javax.lang.model.element.TypeElement;
import javax.lang.model.type.ArrayType;
import javax.lang.model.type.DeclaredType;
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
    /** Null when there is none: reported, or left to javac when it takes a type the permits clause leaves out. */
    Handler creator;
    Set<TypeElement> creatorLeaves = Set.of();
  }

  Handlers checkHandlers(TypeElement type, AnnotationMirror aggregate, String simpleName, EventHierarchy events) {
    Handlers result = new Handlers();
    List<Handler> creators = new ArrayList<>();
    List<Handler> staticApplies = new ArrayList<>();
    List<Handler> instanceCreators = new ArrayList<>();
    List<ExecutableElement> misshapenCreators = new ArrayList<>();
    List<ExecutableElement> varargsCreators = new ArrayList<>();
    // Events taken by an apply method whose error is reported already: "no handler" would be a second
    // error for the same mistake, and one that contradicts the first.
    Set<TypeElement> claimed = new HashSet<>();
    boolean creatorTakesRejected = false;
    String rootName = display(events.root);
    String replay = GeneratedTypes.nestedName(ClassName.get(type), "Replay");
    Set<ExecutableElement> accessors = new HashSet<>();
    for (RecordComponentElement component : type.getRecordComponents()) {
      accessors.add(component.getAccessor());
    }
    for (ExecutableElement method : ElementFilter.methodsIn(type.getEnclosedElements())) {
      if (accessors.contains(method)) {
        // A component named apply has an accessor named apply, which reads the state and is no handler.
        continue;
      }
      boolean isStatic = method.getModifiers().contains(Modifier.STATIC);
      boolean isApply = method.getSimpleName().contentEquals("apply");
      TypeElement varargsEvent = varargsEvent(method, events);
      if (varargsEvent != null && isApply) {
        // One mistake, reported once on the method rather than its events again as unhandled.
        errors.error(method, Messages.eventVarargs("apply", display(varargsEvent), false));
        claimed.addAll(events.leavesUnder.get(varargsEvent));
        continue;
      }
      if (varargsEvent != null && isStatic && returnsAggregate(method, type)) {
        // The creating method with a slip, unless another one is (then it is a helper): see below.
        varargsCreators.add(method);
        continue;
      }
      if (takesEventOutsideHierarchy(method, events)) {
        // A subtype of the root that is no event: the type is the mistake, reported by esgen (an enum, a
        // non-sealed level) or by javac (a type the permits clause leaves out), not the method.
        creatorTakesRejected |= isStatic && returnsAggregate(method, type);
        continue;
      }
      TypeElement event = eventParameter(method, events);
      boolean handlerShaped = event != null && returnsAggregate(method, type) && method.getTypeParameters().isEmpty();
      if (isApply && isStatic && handlerShaped) {
        staticApplies.add(new Handler(method, event));
      } else if (isApply) {
        checkApply(method, event, type, simpleName, rootName, replay, events, result, claimed);
      } else if (isStatic && event != null && returnsAggregate(method, type)) {
        creators.add(new Handler(method, event));
      } else if (handlerShaped) {
        instanceCreators.add(new Handler(method, event));
      } else if (isStatic && firstParameterEvent(method, events) != null && yieldsAggregate(method, type)) {
        misshapenCreators.add(method);
      }
    }
    // A static apply that could build the aggregate is its creating method, as any static method of that
    // shape is, unless another one is: then it is a handler declared static by mistake.
    if (creators.isEmpty() && !staticApplies.isEmpty()) {
      creators.add(staticApplies.remove(0));
    }
    for (Handler handler : staticApplies) {
      errors.error(handler.method(), Messages.handlerShape(simpleName, rootName, "is static", display(handler.event())));
      claimed.addAll(events.leavesUnder.get(handler.event()));
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
      // A static method taking an event, or an instance method of the creating method's shape whose
      // events no handler takes, is most likely the creating method with a slip.
      Optional<Handler> notStatic = instanceCreators.stream()
          .filter(candidate -> !result.appliedBy.keySet().containsAll(events.leavesUnder.get(candidate.event())))
          .findFirst();
      if (!varargsCreators.isEmpty()) {
        ExecutableElement method = varargsCreators.get(0);
        errors.error(method, Messages.eventVarargs(
            method.getSimpleName().toString(), display(varargsEvent(method, events)), true));
      } else if (!misshapenCreators.isEmpty()) {
        ExecutableElement method = misshapenCreators.get(0);
        TypeElement event = firstParameterEvent(method, events);
        errors.error(method, Messages.creatorShape(signature(method), simpleName, creatorProblem(method),
            "static " + simpleName + " " + method.getSimpleName() + "(" + display(event) + " e)"));
      } else if (notStatic.isPresent()) {
        errors.error(notStatic.get().method(), Messages.creatorNotStatic(signature(notStatic.get()), simpleName));
      } else if (!creatorTakesRejected) {
        String example = events.leaves.isEmpty() ? rootName : display(events.leaves.iterator().next());
        errors.error(type, aggregate, Messages.noCreator(simpleName, example));
      }
      return result;
    }
    result.creator = creators.get(0);
    result.creatorLeaves = events.leavesUnder.get(result.creator.event());
    if (result.creator.method().getModifiers().contains(Modifier.PRIVATE)) {
      errors.error(result.creator.method(), Messages.creatorPrivate(replay));
    }
    checkedException(result.creator.method()).ifPresent(thrown ->
        errors.error(result.creator.method(), Messages.handlerThrows(signature(result.creator), thrown)));
    for (Handler extra : creators.subList(1, creators.size())) {
      errors.error(extra.method(), Messages.duplicateCreator(signature(extra), signature(result.creator)));
      // Its events are that one mistake, not also unhandled ones.
      claimed.addAll(events.leavesUnder.get(extra.event()));
    }
    // An instance method of a handler's shape under another name (on, when, handle, as other libraries
    // call them) is reported once, instead of its events as unhandled.
    for (Handler misnamed : instanceCreators) {
      List<TypeElement> unhandled = events.leavesUnder.get(misnamed.event()).stream()
          .filter(leaf -> !result.appliedBy.containsKey(leaf) && !result.creatorLeaves.contains(leaf))
          .toList();
      if (!unhandled.isEmpty() && !claimed.containsAll(unhandled)) {
        errors.error(misnamed.method(), Messages.handlerName(signature(misnamed), display(misnamed.event())));
        claimed.addAll(unhandled);
      }
    }
    for (TypeElement leaf : events.leaves) {
      if (!result.appliedBy.containsKey(leaf) && !result.creatorLeaves.contains(leaf) && !claimed.contains(leaf)) {
        Optional<ExecutableElement> inherited = inheritedHandler(type, leaf, events);
        if (inherited.isPresent()) {
          errors.error(type, aggregate, Messages.inheritedHandler(display(leaf), simpleName, signature(inherited.get()),
              display((TypeElement) inherited.get().getEnclosingElement())));
          claimed.addAll(events.leavesUnder.get(firstParameterEvent(inherited.get(), events)));
        } else {
          errors.error(type, aggregate, Messages.noHandler(display(leaf), simpleName));
        }
      }
    }
    return result;
  }

  /**
   * Checks one instance method named {@code apply}: a handler of the right shape joins
   * {@code result.handlers}; one of another shape is reported, and the events it takes are
   * {@code claimed} so that they are not reported again as unhandled.
   */
  private void checkApply(ExecutableElement method, TypeElement event, TypeElement type, String simpleName,
      String rootName, String replay, EventHierarchy events, Handlers result, Set<TypeElement> claimed) {
    String problem = null;
    if (method.getModifiers().contains(Modifier.STATIC)) {
      problem = "is static";
    } else if (method.getParameters().size() != 1) {
      problem = "takes " + method.getParameters().size() + " parameters";
    } else if (!method.getTypeParameters().isEmpty()) {
      problem = "declares type parameters " + method.getTypeParameters().stream()
          .map(parameter -> parameter.getSimpleName().toString())
          .collect(Collectors.joining(", ", "<", ">"));
    } else if (event == null) {
      problem = "takes " + method.getParameters().get(0).asType() + ", which is not an event of " + rootName;
    } else if (!returnsAggregate(method, type)) {
      problem = "returns " + method.getReturnType()
          + (returnsEvents(method, events) ? ", as a command does (name commands after what they do)" : "");
    }
    TypeElement taken = event != null ? event : firstParameterEvent(method, events);
    if (problem != null) {
      errors.error(method, Messages.handlerShape(simpleName, rootName, problem, taken == null ? null : display(taken)));
    } else if (method.getModifiers().contains(Modifier.PRIVATE)) {
      errors.error(method, Messages.handlerPrivate(replay));
    } else {
      Handler handler = new Handler(method, event);
      checkedException(method).ifPresent(thrown ->
          errors.error(method, Messages.handlerThrows(signature(handler), thrown)));
      result.handlers.add(handler);
      return;
    }
    if (taken != null) {
      claimed.addAll(events.leavesUnder.get(taken));
    }
  }

  /** The first checked exception {@code method} declares: replay implements an interface that throws none. */
  private Optional<String> checkedException(ExecutableElement method) {
    return DeclaredExceptions.firstChecked(method, elements, types);
  }

  /** The event type (a leaf or a sealed level) {@code method}'s only parameter is, or null. */
  private TypeElement eventParameter(ExecutableElement method, EventHierarchy events) {
    return method.getParameters().size() == 1 ? firstParameterEvent(method, events) : null;
  }

  /**
   * The event type (a leaf or a sealed level) {@code method}'s first parameter is, or null. A type
   * variable counts as its bound, so that a generic handler is reported for its type parameters only.
   */
  private TypeElement firstParameterEvent(ExecutableElement method, EventHierarchy events) {
    if (method.getParameters().isEmpty()) {
      return null;
    }
    TypeMirror parameter = types.erasure(method.getParameters().get(0).asType());
    if (parameter.getKind() != TypeKind.DECLARED) {
      return null;
    }
    TypeElement element = (TypeElement) types.asElement(parameter);
    return events.contains(element) ? element : null;
  }

  /** The event type of {@code method}'s only parameter when it is varargs ({@code Opened... e}), or null. */
  private TypeElement varargsEvent(ExecutableElement method, EventHierarchy events) {
    if (!method.isVarArgs() || method.getParameters().size() != 1
        || !(types.erasure(method.getParameters().get(0).asType()) instanceof ArrayType array)
        || array.getComponentType().getKind() != TypeKind.DECLARED) {
      return null;
    }
    TypeElement element = (TypeElement) types.asElement(array.getComponentType());
    return events.contains(element) ? element : null;
  }

  /**
   * Whether {@code method}'s first parameter is a type the hierarchy walk rejected (an enum, a non-sealed
   * level, a permitted type javac rejects) or a subtype of one, or a subtype of the events root the
   * permits clause leaves out, which javac reports.
   */
  private boolean takesEventOutsideHierarchy(ExecutableElement method, EventHierarchy events) {
    if (method.getParameters().isEmpty()) {
      return false;
    }
    TypeMirror parameter = types.erasure(method.getParameters().get(0).asType());
    if (parameter.getKind() != TypeKind.DECLARED || events.contains((TypeElement) types.asElement(parameter))) {
      return false;
    }
    return types.isSubtype(parameter, types.erasure(events.root.asType()))
        || events.rejected.stream().anyMatch(rejected -> types.isSubtype(parameter, types.erasure(rejected.asType())));
  }

  /** An {@code apply} method taking {@code leaf} that {@code type} inherits rather than declares. */
  private Optional<ExecutableElement> inheritedHandler(TypeElement type, TypeElement leaf, EventHierarchy events) {
    return ElementFilter.methodsIn(elements.getAllMembers(type)).stream()
        .filter(method -> method.getSimpleName().contentEquals("apply") && !method.getEnclosingElement().equals(type))
        .filter(method -> {
          TypeElement event = firstParameterEvent(method, events);
          return event != null && events.leavesUnder.get(event).contains(leaf);
        })
        .findFirst();
  }

  /** Whether {@code method} returns what a command returns: events, or a collection of them. */
  private boolean returnsEvents(ExecutableElement method, EventHierarchy events) {
    TypeMirror returned = types.erasure(method.getReturnType());
    TypeElement collection = elements.getTypeElement("java.util.Collection");
    return returned.getKind() == TypeKind.DECLARED
        && (types.isSubtype(returned, types.erasure(events.root.asType()))
            || types.isSubtype(returned, types.erasure(collection.asType())));
  }

  /** What keeps a static method taking an event and yielding the aggregate from being the creating method. */
  private static String creatorProblem(ExecutableElement method) {
    if (method.getParameters().size() != 1) {
      return "takes " + method.getParameters().size() + " parameters";
    }
    if (!method.getTypeParameters().isEmpty()) {
      return "declares type parameters";
    }
    return "returns " + method.getReturnType();
  }

  private boolean returnsAggregate(ExecutableElement method, TypeElement type) {
    return types.isSameType(types.erasure(method.getReturnType()), types.erasure(type.asType()));
  }

  /** Whether {@code method} returns the aggregate, or a type that wraps it such as {@code Optional<Thing>}. */
  private boolean yieldsAggregate(ExecutableElement method, TypeElement type) {
    TypeMirror aggregate = types.erasure(type.asType());
    return returnsAggregate(method, type)
        || (method.getReturnType() instanceof DeclaredType declared
            && declared.getTypeArguments().stream().anyMatch(argument -> types.isSameType(types.erasure(argument), aggregate)));
  }

  private static String signature(Handler handler) {
    return handler.method().getSimpleName() + "(" + display(handler.event()) + ")";
  }

  /** {@code create(Opened, Clock)}: the method's name and its parameters' types as written. */
  private String signature(ExecutableElement method) {
    return method.getSimpleName() + method.getParameters().stream()
        .map(parameter -> {
          TypeMirror erased = types.erasure(parameter.asType());
          return erased.getKind() == TypeKind.DECLARED ? display((TypeElement) types.asElement(erased)) : erased.toString();
        })
        .collect(Collectors.joining(", ", "(", ")"));
  }
}
