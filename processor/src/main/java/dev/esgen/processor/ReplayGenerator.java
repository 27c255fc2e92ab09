package dev.esgen.processor;

import com.palantir.javapoet.CodeBlock;
import com.palantir.javapoet.MethodSpec;
import com.palantir.javapoet.NameAllocator;
import com.palantir.javapoet.ParameterizedTypeName;
import com.palantir.javapoet.TypeSpec;
import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;
import javax.lang.model.element.Modifier;

/**
 * Generates {@code FooRepository.Replay}: calls the aggregate's creating method and {@code apply} handlers through
 * an {@code instanceof} chain, without reflection, so a debugger steps straight into user code.
 */
final class ReplayGenerator {

  private ReplayGenerator() {}

  static TypeSpec generate(AggregateModel model) {
    return GeneratedTypes.nested(
            "Replay",
            CodeBlock.of(
                "Folds {@link $T} events into {@link $T} state by calling its own handlers.",
                model.eventsType(),
                model.type()))
        .addSuperinterface(ParameterizedTypeName.get(RuntimeTypes.REPLAY, model.type(), model.eventsType()))
        .addMethod(GeneratedTypes.noArgConstructor())
        .addMethod(create(model))
        .addMethod(apply(model))
        .build();
  }

  private static MethodSpec create(AggregateModel model) {
    CreatorModel creator = model.creator();
    MethodSpec.Builder create =
        MethodSpec.methodBuilder("create")
            .addAnnotation(Override.class)
            .addModifiers(Modifier.PUBLIC)
            .returns(model.type())
            .addParameter(model.eventsType(), "event")
            .addStatement("$T.requireNonNull(event, $S)", Objects.class, "event");
    if (creator.takesRoot()) {
      return create.addStatement("return $T.$N(event)", model.type(), creator.methodName()).build();
    }
    String variable = GeneratedTypes.variableFor(creator.parameterType().simpleName(), reserved(model));
    List<String> starters =
        model.events().stream().filter(EventModel::creates).map(e -> GeneratedTypes.display(e.type())).toList();
    return create
        .beginControlFlow("if (event instanceof $T $N)", creator.parameterType(), variable)
        .addStatement("return $T.$N($N)", model.type(), creator.methodName(), variable)
        .endControlFlow()
        .addStatement(
            "throw new $T($S, $T.storedName(event),$W$S)",
            RuntimeTypes.UNEXPECTED_EVENT,
            model.name(),
            model.nested("EventCodec"),
            "only " + String.join(" or ", starters) + " can start " + streamOf(model))
        .build();
  }

  private static MethodSpec apply(AggregateModel model) {
    MethodSpec.Builder apply =
        MethodSpec.methodBuilder("apply")
            .addAnnotation(Override.class)
            .addModifiers(Modifier.PUBLIC)
            .returns(model.type())
            .addParameter(model.type(), "state")
            .addParameter(model.eventsType(), "event")
            .addStatement("$T.requireNonNull(state, $S)", Objects.class, "state")
            .addStatement("$T.requireNonNull(event, $S)", Objects.class, "event");
    NameAllocator names = reserved(model);
    for (HandlerModel handler : model.handlers()) {
      if (handler.takesRoot()) {
        return apply.addStatement("return state.apply(event)").build();
      }
      String variable = GeneratedTypes.variableFor(handler.parameterType().simpleName(), names);
      apply
          .beginControlFlow("if (event instanceof $T $N)", handler.parameterType(), variable)
          .addStatement("return state.apply($N)", variable)
          .endControlFlow();
    }
    List<EventModel> creatingOnly = model.creatingOnlyEvents();
    String reason =
        creatingOnly.isEmpty()
            ? model.type().simpleName() + " has no apply handler for it"
            : model.type().simpleName() + " has no apply handler for it: "
                + creatingOnly.stream().map(e -> GeneratedTypes.display(e.type())).collect(Collectors.joining(" and "))
                + " can only start " + streamOf(model);
    return apply
        .addStatement(
            "throw new $T($S, $T.storedName(event),$W$S)",
            RuntimeTypes.UNEXPECTED_EVENT,
            model.name(),
            model.nested("EventCodec"),
            reason)
        .build();
  }

  /**
   * The names a variable may not take: the parameters, and the names the aggregate may be written with
   * ({@code shop.Replay.open(shop)} would look for {@code Replay} in a variable {@code shop}).
   */
  private static NameAllocator reserved(AggregateModel model) {
    NameAllocator names = new NameAllocator();
    names.newName("state");
    names.newName("event");
    GeneratedTypes.reserveNamesOf(model.type(), names);
    return names;
  }

  /** "a bank-account stream", "an order stream": the article by the name's first letter, as it is read aloud most often. */
  private static String streamOf(AggregateModel model) {
    String name = model.name();
    boolean vowel = !name.isEmpty() && "aeioAEIO".indexOf(name.charAt(0)) >= 0;
    return (vowel ? "an " : "a ") + name + " stream";
  }
}
