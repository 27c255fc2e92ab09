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
 * Generates {@code FooRepository.EventCodec}, a {@code JsonEventCodec}: the stored names and classes of the
 * events and the dispatch over the concrete events to their place in that order, so no class names end up
 * in stored data; the runtime class does the rest. Stored events of older versions, under aliases or of
 * retired types are read through their upcasters: one private method per stored type that has any,
 * calling them in version order.
 */
final class EventCodecGenerator {

  private EventCodecGenerator() {}

  static TypeSpec generate(AggregateModel model) {
    ClassName root = model.eventsType();
    TypeSpec.Builder codec =
        GeneratedTypes.nested(
                "EventCodec",
                CodeBlock.of(
                    "Reads and writes the events of {@link $T} ({@link $T}): each is stored under its type name"
                        + "\nwith a JSON body.",
                    model.type(),
                    root))
            .superclass(ParameterizedTypeName.get(RuntimeTypes.JSON_EVENT_CODEC, root));

    CodeBlock.Builder names = CodeBlock.builder();
    CodeBlock.Builder classes = CodeBlock.builder();
    for (int i = 0; i < model.events().size(); i++) {
      names.add(i == 0 ? "$L" : ",$W$L", GeneratedTypes.stringLiteral(model.events().get(i).storedName()));
      classes.add(",$W$T.class", model.events().get(i).type());
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
    codec.addMethod(
        MethodSpec.constructorBuilder()
            .addModifiers(Modifier.PUBLIC)
            .addJavadoc("Creates the codec with the mapper the store uses for bodies.\n")
            .addParameter(RuntimeTypes.OBJECT_MAPPER, "mapper")
            .addStatement("super($S, EVENT_TYPES, mapper$L)", model.name(), classes.build())
            .build());

    codec.addMethod(
        MethodSpec.methodBuilder("storedName")
            .addJavadoc(
                "The stored name of {@code event}; static so that the replay can name events in its errors.\n")
            .addModifiers(Modifier.PUBLIC, Modifier.STATIC)
            .returns(String.class)
            .addParameter(root, "event")
            .addStatement("$T.requireNonNull(event, $S)", Objects.class, "event")
            .addStatement("return EVENT_TYPES.get(index(event))")
            .build());

    MethodSpec.Builder index =
        MethodSpec.methodBuilder("index")
            .addJavadoc("Where {@code event}'s type is in {@link #EVENT_TYPES}: the dispatch over $T's events.\n",
                root)
            .addModifiers(Modifier.PRIVATE, Modifier.STATIC)
            .returns(TypeName.INT)
            .addParameter(root, "event");
    for (int i = 0; i < model.events().size(); i++) {
      index
          .beginControlFlow("if (event instanceof $T)", model.events().get(i).type())
          .addStatement("return $L", i)
          .endControlFlow();
    }
    codec.addMethod(index.addStatement("throw notGeneratedFor($S, event)", model.name()).build());

    codec.addMethod(
        MethodSpec.methodBuilder("indexOf")
            .addAnnotation(Override.class)
            .addModifiers(Modifier.PROTECTED)
            .returns(TypeName.INT)
            .addParameter(root, "event")
            .addStatement("return index(event)")
            .build());

    if (model.events().stream().anyMatch(event -> model.evolution().of(event.type()).version() != 1)) {
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
    }
    addDecodeStored(codec, model);
    return codec.build();
  }

  /**
   * {@code decodeStored}, when some event is stored under another name or version than its current one:
   * a switch sends every such name (aliases, names of events at another version or with upcasters, retired
   * types) to the events they stand for now, and the rest to {@code JsonEventCodec}'s reading of current
   * names at version 1. A type without upcasters reads its current version only; one with upcasters goes
   * through its own method. Without any such name the inherited {@code decodeStored} does it all.
   */
  private static void addDecodeStored(TypeSpec.Builder codec, AggregateModel model) {
    ClassName root = model.eventsType();
    CodeBlock.Builder cases = CodeBlock.builder();
    List<MethodSpec> readers = new ArrayList<>();
    NameAllocator methods = new NameAllocator();
    for (String reserved : List.of("decodeStored", "decode", "encode", "version", "typeName", "storedName",
        "notGeneratedFor", "tree", "unknownVersion", "indexOf", "index", "read")) {
      methods.newName(reserved);
    }
    for (int i = 0; i < model.events().size(); i++) {
      EventModel event = model.events().get(i);
      StoredTypeModel stored = model.evolution().of(event.type());
      if (stored.version() == 1 && stored.aliases().isEmpty() && stored.upcasts().isEmpty()) {
        continue;
      }
      cases.add("case $L:\n", GeneratedTypes.stringLiteral(stored.name()));
      for (String alias : stored.aliases()) {
        cases.add("case $L:\n", GeneratedTypes.stringLiteral(alias));
      }
      cases.indent();
      if (stored.upcasts().isEmpty()) {
        cases
            .beginControlFlow("if (version != $L)", stored.version())
            .addStatement("throw unknownVersion(typeName, version)")
            .endControlFlow()
            // The type witness keeps javac from reading the generic read as an array for List.of(E...).
            .addStatement("return $T.of(this.<$T>read($L, body))", List.class, event.type(), i);
      } else {
        String method = methods.newName("read" + event.type().simpleName());
        cases.addStatement("return $N(typeName, version, body)", method);
        readers.add(upcasting(model, stored, method, i, event.type()));
      }
      cases.unindent();
    }
    for (StoredTypeModel retired : model.evolution().retired()) {
      String method = methods.newName("read" + methodName(retired.name()));
      cases.add("case $L:\n$>", GeneratedTypes.stringLiteral(retired.name()))
          .addStatement("return $N(typeName, version, body)", method)
          .add("$<");
      readers.add(upcasting(model, retired, method, -1, null));
    }
    if (cases.isEmpty()) {
      return;
    }
    codec.addMethod(
        MethodSpec.methodBuilder("decodeStored")
            .addAnnotation(Override.class)
            .addModifiers(Modifier.PUBLIC)
            .returns(ParameterizedTypeName.get(ClassName.get(List.class), root))
            .addParameter(String.class, "typeName")
            .addParameter(TypeName.INT, "version")
            .addParameter(ArrayTypeName.of(TypeName.BYTE), "body")
            .addException(IOException.class)
            .addStatement("$T.requireNonNull(typeName, $S)", Objects.class, "typeName")
            .addStatement("$T.requireNonNull(body, $S)", Objects.class, "body")
            .beginControlFlow("switch (typeName)")
            .addCode(cases.build())
            .addCode("default:\n$>")
            .addStatement("return super.decodeStored(typeName, version, body)")
            .addCode("$<")
            .endControlFlow()
            .build());
    codec.addMethods(readers);
  }

  /**
   * The method reading stored type {@code stored} at any of its versions: the current one (of a current
   * type, whose place {@code reader} in the tables and class {@code event} are given; -1 for a retired
   * type) straight from the body; an older one as a JSON object through the upcasters from its version on,
   * until one returns events or the current version is reached. It takes the name the event was stored
   * under, the type's or an alias, so that a version it cannot read is reported under that name.
   */
  private static MethodSpec upcasting(AggregateModel model, StoredTypeModel stored, String name, int reader,
      ClassName event) {
    TypeName events = ParameterizedTypeName.get(ClassName.get(List.class), model.eventsType());
    int last = reader < 0 ? stored.version() : stored.version() - 1;
    // A parameter or local named like the package an upcaster's class is written with would hide it:
    // json = json.Keys.up(json).
    NameAllocator names = new NameAllocator();
    stored.upcasts().forEach(upcast -> GeneratedTypes.reserveNamesOf(upcast.owner(), names));
    String typeName = names.newName("typeName");
    String version = names.newName("version");
    String body = names.newName("body");
    String json = names.newName("json");
    MethodSpec.Builder method = MethodSpec.methodBuilder(name)
        .addJavadoc(reader < 0
            ? CodeBlock.of("Stored type $L, which no event class holds any more: $L through $L.\n",
                GeneratedTypes.javadocLiteral(stored.name()), versions(stored.version()),
                stored.upcasts().size() == 1 ? "its upcaster" : "its upcasters")
            : CodeBlock.of("Stored type $L at version $L, older versions through their upcasters.\n",
                GeneratedTypes.javadocLiteral(stored.name()), stored.version()))
        .addModifiers(Modifier.PRIVATE)
        .returns(events)
        .addParameter(String.class, typeName)
        .addParameter(TypeName.INT, version)
        .addParameter(ArrayTypeName.of(TypeName.BYTE), body)
        .addException(IOException.class);
    if (reader >= 0) {
      method
          .beginControlFlow("if ($N == $L)", version, stored.version())
          .addStatement("return $T.of(this.<$T>read($L, $N))", List.class, event, reader, body)
          .endControlFlow();
    }
    method
        .beginControlFlow("$L", last == 1
            ? CodeBlock.of("if ($N != 1)", version)
            : CodeBlock.of("if ($N < 1 || $N > $L)", version, version, last))
        .addStatement("throw unknownVersion($N, $N)", typeName, version)
        .endControlFlow()
        .addStatement("$T $N = tree($N)", RuntimeTypes.OBJECT_NODE, json, body);
    List<StoredTypeModel.UpcastModel> upcasts = stored.upcasts();
    for (int k = 0; k < upcasts.size(); k++) {
      StoredTypeModel.UpcastModel upcast = upcasts.get(k);
      // Every version still here is at or below this one: the last step needs no condition.
      boolean lastStep = k == upcasts.size() - 1;
      CodeBlock call = CodeBlock.of("$T.$N($N)", upcast.owner(), upcast.method(), json);
      CodeBlock step = switch (upcast.result()) {
        case NEXT_VERSION -> CodeBlock.of("$N = $L", json, call);
        case EVENT -> CodeBlock.of("return $T.of($L)", List.class, call);
        case EVENTS -> CodeBlock.of("return $T.copyOf($L)", List.class, call);
      };
      if (lastStep) {
        method.addStatement(step);
      } else {
        method.beginControlFlow("if ($N <= $L)", version, upcast.from()).addStatement(step).endControlFlow();
      }
    }
    if (upcasts.get(upcasts.size() - 1).result() == StoredTypeModel.Result.NEXT_VERSION) {
      method.addStatement("return $T.of(this.<$T>read($L, $N))", List.class, event, reader, json);
    }
    return method.build();
  }

  private static String versions(int last) {
    return last == 1 ? "version 1" : last == 2 ? "versions 1 and 2" : "versions 1 to " + last;
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
