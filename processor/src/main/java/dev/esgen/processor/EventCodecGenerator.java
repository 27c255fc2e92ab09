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
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import javax.lang.model.element.Modifier;

/**
 * Generates {@code FooEventCodec}: a dispatch over the concrete events by stored name, with one Jackson
 * reader and writer per event type, so no class names end up in stored data. Stored events of older
 * versions, under aliases or of retired types are read through their upcasters: one private method per
 * stored type that has any, calling them in version order.
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
    if (model.evolution().upcasts()) {
      codec.addField(RuntimeTypes.OBJECT_MAPPER, "mapper", Modifier.PRIVATE, Modifier.FINAL);
      constructor.addStatement("this.mapper = mapper");
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

    MethodSpec.Builder version =
        MethodSpec.methodBuilder("version")
            .addAnnotation(Override.class)
            .addModifiers(Modifier.PUBLIC)
            .returns(TypeName.INT)
            .addParameter(root, "event")
            .addStatement("$T.requireNonNull(event, $S)", Objects.class, "event");
    for (EventModel event : model.events()) {
      int current = model.evolution().of(event.type()).version();
      if (current != 1) {
        version
            .beginControlFlow("if (event instanceof $T)", event.type())
            .addStatement("return $L", current)
            .endControlFlow();
      }
    }
    codec.addMethod(version.addStatement("return 1").build());

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
    addDecodeStored(codec, model, readers);

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

  /**
   * {@code decodeStored}: a switch over every name events may be stored under (current names, aliases,
   * retired types) to the events they stand for now. A type without upcasters reads its current version
   * only; one with upcasters goes through its own method.
   */
  private static void addDecodeStored(TypeSpec.Builder codec, AggregateModel model, String[] eventReaders) {
    ClassName root = model.eventsType();
    TypeName events = ParameterizedTypeName.get(ClassName.get(List.class), root);
    MethodSpec.Builder decode =
        MethodSpec.methodBuilder("decodeStored")
            .addAnnotation(Override.class)
            .addModifiers(Modifier.PUBLIC)
            .returns(events)
            .addParameter(String.class, "typeName")
            .addParameter(TypeName.INT, "version")
            .addParameter(ArrayTypeName.of(TypeName.BYTE), "body")
            .addException(IOException.class)
            .addStatement("$T.requireNonNull(typeName, $S)", Objects.class, "typeName")
            .addStatement("$T.requireNonNull(body, $S)", Objects.class, "body")
            .beginControlFlow("switch (typeName)");
    List<MethodSpec> readers = new ArrayList<>();
    NameAllocator methods = new NameAllocator();
    for (String reserved : List.of("decodeStored", "decode", "encode", "version", "typeName", "storedName",
        "notGeneratedFor", "tree", "unknownVersion")) {
      methods.newName(reserved);
    }
    for (int i = 0; i < model.events().size(); i++) {
      EventModel event = model.events().get(i);
      StoredTypeModel stored = model.evolution().of(event.type());
      decode.addCode("case $S:\n", stored.name());
      for (String alias : stored.aliases()) {
        decode.addCode("case $S:\n", alias);
      }
      decode.addCode("$>");
      if (stored.upcasts().isEmpty()) {
        decode
            .beginControlFlow("if (version != $L)", stored.version())
            .addStatement("throw unknownVersion(typeName, version)")
            .endControlFlow()
            // The type witness keeps javac from reading the generic readValue as an array for List.of(E...).
            .addStatement("return $T.of($N.<$T>readValue(body))", List.class, eventReaders[i], event.type());
      } else {
        String method = methods.newName("read" + event.type().simpleName());
        decode.addStatement("return $N(version, body)", method);
        readers.add(upcasting(model, stored, method, eventReaders[i], event.type()));
      }
      decode.addCode("$<");
    }
    for (StoredTypeModel retired : model.evolution().retired()) {
      String method = methods.newName("read" + methodName(retired.name()));
      decode.addCode("case $S:\n$>", retired.name()).addStatement("return $N(version, body)", method).addCode("$<");
      readers.add(upcasting(model, retired, method, null, null));
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
    codec.addMethods(readers);

    codec.addMethod(
        MethodSpec.methodBuilder("unknownVersion")
            .addModifiers(Modifier.PRIVATE, Modifier.STATIC)
            .returns(IOException.class)
            .addParameter(String.class, "typeName")
            .addParameter(TypeName.INT, "version")
            .addStatement("return new $T($S + version + $S + typeName + $S)", IOException.class,
                "aggregate " + model.name() + " cannot read version ", " of event type \"",
                "\": no upcaster reads it, and its class is at another version")
            .build());
    if (model.evolution().upcasts()) {
      codec.addMethod(
          MethodSpec.methodBuilder("tree")
              .addJavadoc("A stored body as the JSON object upcasters take.\n")
              .addModifiers(Modifier.PRIVATE)
              .returns(RuntimeTypes.OBJECT_NODE)
              .addParameter(ArrayTypeName.of(TypeName.BYTE), "body")
              .addException(IOException.class)
              .addStatement("$T tree = mapper.readTree(body)", RuntimeTypes.JSON_NODE)
              .beginControlFlow("if (tree instanceof $T object)", RuntimeTypes.OBJECT_NODE)
              .addStatement("return object")
              .endControlFlow()
              .addStatement("throw new $T($S + tree.getNodeType())", IOException.class,
                  "a stored event body is not a JSON object but ")
              .build());
    }
  }

  /**
   * The method reading stored type {@code stored} at any of its versions: the current one (of a current
   * type, whose {@code reader} and class {@code event} are given) straight from the body; an older one as
   * a JSON object through the upcasters from its version on, until one returns events or the current
   * version is reached.
   */
  private static MethodSpec upcasting(AggregateModel model, StoredTypeModel stored, String name, String reader,
      ClassName event) {
    TypeName events = ParameterizedTypeName.get(ClassName.get(List.class), model.eventsType());
    int last = reader == null ? stored.version() : stored.version() - 1;
    MethodSpec.Builder method = MethodSpec.methodBuilder(name)
        .addJavadoc(reader == null
            ? CodeBlock.of("Stored type {@code $S}, which no event class holds any more: $L through $L.\n",
                stored.name(), versions(stored.version()), stored.upcasts().size() == 1 ? "its upcaster" : "its upcasters")
            : CodeBlock.of("Stored type {@code $S} at version $L, older versions through their upcasters.\n",
                stored.name(), stored.version()))
        .addModifiers(Modifier.PRIVATE)
        .returns(events)
        .addParameter(TypeName.INT, "version")
        .addParameter(ArrayTypeName.of(TypeName.BYTE), "body")
        .addException(IOException.class);
    if (reader != null) {
      method
          .beginControlFlow("if (version == $L)", stored.version())
          .addStatement("return $T.of($N.<$T>readValue(body))", List.class, reader, event)
          .endControlFlow();
    }
    method
        .beginControlFlow("$L", last == 1 ? CodeBlock.of("if (version != 1)") : CodeBlock.of("if (version < 1 || version > $L)", last))
        .addStatement("throw unknownVersion($S, version)", stored.name())
        .endControlFlow()
        .addStatement("$T json = tree(body)", RuntimeTypes.OBJECT_NODE);
    List<StoredTypeModel.UpcastModel> upcasts = stored.upcasts();
    for (int k = 0; k < upcasts.size(); k++) {
      StoredTypeModel.UpcastModel upcast = upcasts.get(k);
      // Every version still here is at or below this one: the last step needs no condition.
      boolean lastStep = k == upcasts.size() - 1;
      CodeBlock call = CodeBlock.of("$T.$N(json)", upcast.owner(), upcast.method());
      CodeBlock step = switch (upcast.result()) {
        case NEXT_VERSION -> CodeBlock.of("json = $L", call);
        case EVENT -> CodeBlock.of("return $T.of($L)", List.class, call);
        case EVENTS -> CodeBlock.of("return $T.copyOf($L)", List.class, call);
      };
      if (lastStep) {
        method.addStatement(step);
      } else {
        method.beginControlFlow("if (version <= $L)", upcast.from()).addStatement(step).endControlFlow();
      }
    }
    if (upcasts.get(upcasts.size() - 1).result() == StoredTypeModel.Result.NEXT_VERSION) {
      method.addStatement("return $T.of($N.<$T>readValue(json))", List.class, reader, event);
    }
    return method.build();
  }

  private static String versions(int last) {
    return last == 1 ? "version 1" : "versions 1 to " + last;
  }

  /** The part of a method name for a retired stored type: {@code TransferBooked} for {@code "transfer-booked"}. */
  private static String methodName(String storedName) {
    StringBuilder name = new StringBuilder("Retired");
    boolean upper = true;
    for (char c : storedName.toCharArray()) {
      if (Character.isLetterOrDigit(c) && c < 128) {
        name.append(upper ? Character.toUpperCase(c) : c);
        upper = false;
      } else {
        upper = true;
      }
    }
    return name.toString();
  }
}
