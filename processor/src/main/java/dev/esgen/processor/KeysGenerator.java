package dev.esgen.processor;

import com.palantir.javapoet.CodeBlock;
import com.palantir.javapoet.MethodSpec;
import com.palantir.javapoet.ParameterizedTypeName;
import com.palantir.javapoet.TypeSpec;
import java.util.UUID;
import javax.lang.model.element.Modifier;

/**
 * Generates {@code FooRepository.Keys}: reads the id out of the state and converts it to and from its stored string.
 * {@code idString} hands its result to the runtime's {@code AggregateIds.requireValid} with the
 * aggregate's name and layout, so an id no key can hold fails before any request.
 */
final class KeysGenerator {

  private KeysGenerator() {}

  static TypeSpec generate(AggregateModel model) {
    IdModel id = model.id();
    String aggregate = model.type().simpleName();
    MethodSpec idOf =
        MethodSpec.methodBuilder("idOf")
            .addAnnotation(Override.class)
            .addModifiers(Modifier.PUBLIC)
            .returns(id.type())
            .addParameter(model.type(), "state")
            .addStatement("$T id = $L", id.type(), id.access().readFrom("state"))
            .beginControlFlow("if (id == null)")
            .addStatement(
                "throw new $T($S)",
                NullPointerException.class,
                model.name() + ": " + aggregate + "." + id.propertyName() + " is null; the creating method must set it")
            .endControlFlow()
            .addStatement("return id")
            .build();

    MethodSpec.Builder idString =
        MethodSpec.methodBuilder("idString")
            .addAnnotation(Override.class)
            .addModifiers(Modifier.PUBLIC)
            .returns(String.class)
            .addParameter(id.type(), "id")
            .beginControlFlow("if (id == null)")
            .addStatement("throw new $T($S)", NullPointerException.class, model.name() + ": the id is null")
            .endControlFlow();
    String value = "id";
    if (id.wrapperAccessor().isPresent()) {
      Class<?> valueType = id.valueKind() == IdModel.ValueKind.UUID ? UUID.class : String.class;
      idString
          .addStatement("$T value = id.$L()", valueType, id.wrapperAccessor().get())
          .beginControlFlow("if (value == null)")
          .addStatement(
              "throw new $T($S)",
              NullPointerException.class,
              model.name() + ": the id " + id.type().simpleName() + " holds a null value")
          .endControlFlow();
      value = "value";
    }
    // The runtime knows the key formats, so it computes the limit; only the name and layout are given.
    idString.addStatement(
        "return $T.requireValid($S, $T.$L, $L)",
        RuntimeTypes.AGGREGATE_IDS,
        model.name(),
        RuntimeTypes.LAYOUT_KIND,
        model.options().tip().isPresent() ? "TIP" : "JOURNAL",
        id.valueKind() == IdModel.ValueKind.UUID ? value + ".toString()" : value);

    CodeBlock parsedValue =
        id.valueKind() == IdModel.ValueKind.UUID
            ? CodeBlock.of("$T.fromString(idString)", UUID.class)
            : CodeBlock.of("idString");
    MethodSpec parseId =
        MethodSpec.methodBuilder("parseId")
            .addAnnotation(Override.class)
            .addModifiers(Modifier.PUBLIC)
            .returns(id.type())
            .addParameter(String.class, "idString")
            .beginControlFlow("if (idString == null)")
            .addStatement("throw new $T($S)", NullPointerException.class, model.name() + ": the id string is null")
            .endControlFlow()
            .addStatement(
                id.wrapperAccessor().isPresent()
                    ? CodeBlock.of("return new $T($L)", id.type(), parsedValue)
                    : CodeBlock.of("return $L", parsedValue))
            .build();

    return GeneratedTypes.nested(
            "Keys",
            CodeBlock.of(
                "The id of {@link $T}: read from its {@code $L} and written as the string every key of"
                    + "\naggregate {@code $S} is built from.",
                model.type(),
                id.propertyName(),
                model.name()))
        .addSuperinterface(ParameterizedTypeName.get(RuntimeTypes.AGGREGATE_KEYS, model.type(), id.type()))
        .addMethod(GeneratedTypes.noArgConstructor())
        .addMethod(idOf)
        .addMethod(idString.build())
        .addMethod(parseId)
        .build();
  }
}
