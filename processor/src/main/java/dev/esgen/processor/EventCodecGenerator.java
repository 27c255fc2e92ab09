package dev.esgen.processor;

import com.palantir.javapoet.ArrayTypeName;
import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.CodeBlock;
import com.palantir.javapoet.FieldSpec;
import com.palantir.javapoet.MethodSpec;
import com.palantir.javapoet.NameAllocator;
import com.palantir.javapoet.ParameterizedTypeName;
import com.palantir.javapoet.TypeName;
import com.palantir.javapoet.TypeSpec;
import java.io.IOException;
import java.util.List;
import java.util.Objects;
import javax.lang.model.element.Modifier;

/**
 * Generates {@code FooEventCodec}: a dispatch over the concrete events by stored name, with one Jackson
 * reader and writer per event type, so no class names end up in stored data.
 */
final class EventCodecGenerator {

  private EventCodecGenerator() {}

  static TypeSpec generate(AggregateModel model) {
    ClassName root = model.eventsType();
    ClassName self = model.generated("EventCodec");
    NameAllocator fields = new NameAllocator();
    fields.newName("EVENT_TYPES");
    TypeSpec.Builder codec =
        GeneratedTypes.start(
                model,
                "EventCodec",
                CodeBlock.of(
                    "Reads and writes the events of {@link $T} ({@link $T}): each is stored under its type name"
                        + " with a JSON body.",
                    model.type(),
                    root))
            .addSuperinterface(ParameterizedTypeName.get(RuntimeTypes.EVENT_CODEC, root));

    CodeBlock.Builder names = CodeBlock.builder();
    for (int i = 0; i < model.events().size(); i++) {
      names.add(i == 0 ? "$S" : ", $S", model.events().get(i).storedName());
    }
    codec.addField(
        FieldSpec.builder(
                ParameterizedTypeName.get(List.class, String.class),
                "EVENT_TYPES",
                Modifier.PUBLIC,
                Modifier.STATIC,
                Modifier.FINAL)
            .addJavadoc("The stored names of $T's events, in declaration order.\n", model.type())
            .initializer("$T.of($L)", List.class, names.build())
            .build());

    MethodSpec.Builder constructor =
        MethodSpec.constructorBuilder()
            .addModifiers(Modifier.PUBLIC)
            .addJavadoc("Creates the codec with the mapper the store uses for bodies.\n")
            .addParameter(RuntimeTypes.OBJECT_MAPPER, "mapper")
            .addStatement("$T.requireNonNull(mapper, $S)", Objects.class, "mapper");
    String[] readers = new String[model.events().size()];
    String[] writers = new String[model.events().size()];
    for (int i = 0; i < model.events().size(); i++) {
      EventModel event = model.events().get(i);
      String base = GeneratedTypes.variableFor(event.type().simpleName(), new NameAllocator());
      readers[i] = fields.newName(base + "Reader");
      writers[i] = fields.newName(base + "Writer");
      codec.addField(RuntimeTypes.OBJECT_READER, readers[i], Modifier.PRIVATE, Modifier.FINAL);
      codec.addField(RuntimeTypes.OBJECT_WRITER, writers[i], Modifier.PRIVATE, Modifier.FINAL);
      constructor
          .addStatement("this.$N = mapper.readerFor($T.class)", readers[i], event.type())
          .addStatement("this.$N = mapper.writerFor($T.class)", writers[i], event.type());
    }
    codec.addMethod(constructor.build());

    MethodSpec.Builder storedName =
        MethodSpec.methodBuilder("storedName")
            .addJavadoc(
                "The stored name of {@code event}; static so that the replay can name events in its errors.\n")
            .addModifiers(Modifier.PUBLIC, Modifier.STATIC)
            .returns(String.class)
            .addParameter(root, "event")
            .addStatement("$T.requireNonNull(event, $S)", Objects.class, "event");
    for (EventModel event : model.events()) {
      storedName
          .beginControlFlow("if (event instanceof $T)", event.type())
          .addStatement("return $S", event.storedName())
          .endControlFlow();
    }
    codec.addMethod(storedName.addStatement("throw notGeneratedFor(event)").build());

    codec.addMethod(
        MethodSpec.methodBuilder("typeName")
            .addAnnotation(Override.class)
            .addModifiers(Modifier.PUBLIC)
            .returns(String.class)
            .addParameter(root, "event")
            .addStatement("return storedName(event)")
            .build());

    MethodSpec.Builder encode =
        MethodSpec.methodBuilder("encode")
            .addAnnotation(Override.class)
            .addModifiers(Modifier.PUBLIC)
            .returns(ArrayTypeName.of(TypeName.BYTE))
            .addParameter(root, "event")
            .addException(IOException.class)
            .addStatement("$T.requireNonNull(event, $S)", Objects.class, "event");
    for (int i = 0; i < model.events().size(); i++) {
      EventModel event = model.events().get(i);
      encode
          .beginControlFlow("if (event instanceof $T)", event.type())
          .addStatement("return $N.writeValueAsBytes(event)", writers[i])
          .endControlFlow();
    }
    codec.addMethod(encode.addStatement("throw notGeneratedFor(event)").build());

    MethodSpec.Builder decode =
        MethodSpec.methodBuilder("decode")
            .addAnnotation(Override.class)
            .addModifiers(Modifier.PUBLIC)
            .returns(root)
            .addParameter(String.class, "typeName")
            .addParameter(ArrayTypeName.of(TypeName.BYTE), "body")
            .addException(IOException.class)
            .addStatement("$T.requireNonNull(typeName, $S)", Objects.class, "typeName")
            .addStatement("$T.requireNonNull(body, $S)", Objects.class, "body")
            .beginControlFlow("switch (typeName)");
    for (int i = 0; i < model.events().size(); i++) {
      decode
          .addCode("case $S:\n$>", model.events().get(i).storedName())
          .addStatement("return $N.readValue(body)", readers[i])
          .addCode("$<");
    }
    decode
        .addCode("default:\n$>")
        .addStatement(
            "throw new $T($S + typeName + $S + EVENT_TYPES)",
            IllegalArgumentException.class,
            "aggregate " + model.name() + " has no event type \"",
            "\"; its event types are ")
        .addCode("$<")
        .endControlFlow();
    codec.addMethod(decode.build());

    codec.addMethod(
        MethodSpec.methodBuilder("notGeneratedFor")
            .addModifiers(Modifier.PRIVATE, Modifier.STATIC)
            .returns(IllegalArgumentException.class)
            .addParameter(root, "event")
            .addStatement(
                "return new $T($S + event.getClass().getName() + $S)",
                IllegalArgumentException.class,
                "aggregate " + model.name() + ": ",
                " is not one of the events " + self.simpleName() + " was generated for; recompile "
                    + model.type().simpleName())
            .build());
    return codec.build();
  }
}
