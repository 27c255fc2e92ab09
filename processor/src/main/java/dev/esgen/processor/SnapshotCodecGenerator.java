package dev.esgen.processor;

import com.palantir.javapoet.ArrayTypeName;
import com.palantir.javapoet.CodeBlock;
import com.palantir.javapoet.FieldSpec;
import com.palantir.javapoet.MethodSpec;
import com.palantir.javapoet.ParameterizedTypeName;
import com.palantir.javapoet.TypeName;
import com.palantir.javapoet.TypeSpec;
import java.io.IOException;
import java.util.Objects;
import javax.lang.model.element.Modifier;

/** Generates {@code FooRepository.SnapshotCodec}: the aggregate's state as a JSON snapshot body and back. */
final class SnapshotCodecGenerator {

  private SnapshotCodecGenerator() {}

  static TypeSpec generate(AggregateModel model) {
    return GeneratedTypes.nested(
            "SnapshotCodec",
            CodeBlock.of("Reads and writes snapshots of {@link $T} as JSON.", model.type()))
        .addSuperinterface(ParameterizedTypeName.get(RuntimeTypes.SNAPSHOT_CODEC, model.type()))
        .addField(FieldSpec.builder(String.class, "FINGERPRINT", Modifier.PUBLIC, Modifier.STATIC, Modifier.FINAL)
            .addJavadoc("A hash of $T's state shape, of the source of its creating and apply methods and the"
                + " methods of\n$T they call, of its events' upcaster signatures and of"
                + " {@code @Aggregate(snapshotVersion = $L)}, computed when it was\ncompiled. A snapshot stored"
                + " with another fingerprint was written by other code: it is ignored and\nthe state folded"
                + " from the stream's events.\n", model.type(), model.type(), model.evolution().snapshotVersion())
            .initializer("$S", model.evolution().snapshotFingerprint())
            .build())
        .addField(FieldSpec.builder(RuntimeTypes.JSON_BODIES, "bodies", Modifier.PRIVATE, Modifier.FINAL)
            .addJavadoc("The reader and writer of $T, its only class.\n", model.type())
            .build())
        .addMethod(
            MethodSpec.constructorBuilder()
                .addModifiers(Modifier.PUBLIC)
                .addJavadoc("Creates the codec with the mapper the store uses for bodies.\n")
                .addParameter(RuntimeTypes.OBJECT_MAPPER, "mapper")
                .addStatement("this.bodies = new $T(mapper, $T.class)", RuntimeTypes.JSON_BODIES, model.type())
                .build())
        .addMethod(
            MethodSpec.methodBuilder("encode")
                .addAnnotation(Override.class)
                .addModifiers(Modifier.PUBLIC)
                .returns(ArrayTypeName.of(TypeName.BYTE))
                .addParameter(model.type(), "state")
                .addException(IOException.class)
                .addStatement("$T.requireNonNull(state, $S)", Objects.class, "state")
                .addStatement("return bodies.write(0, state)")
                .build())
        .addMethod(
            MethodSpec.methodBuilder("decode")
                .addAnnotation(Override.class)
                .addModifiers(Modifier.PUBLIC)
                .returns(model.type())
                .addParameter(ArrayTypeName.of(TypeName.BYTE), "body")
                .addException(IOException.class)
                .addStatement("$T.requireNonNull(body, $S)", Objects.class, "body")
                .addStatement("return bodies.read(0, body)")
                .build())
        .addMethod(
            MethodSpec.methodBuilder("fingerprint")
                .addAnnotation(Override.class)
                .addModifiers(Modifier.PUBLIC)
                .returns(String.class)
                .addStatement("return FINGERPRINT")
                .build())
        .build();
  }
}
