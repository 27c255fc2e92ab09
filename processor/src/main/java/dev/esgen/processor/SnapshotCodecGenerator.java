package dev.esgen.processor;

import com.palantir.javapoet.CodeBlock;
import com.palantir.javapoet.FieldSpec;
import com.palantir.javapoet.MethodSpec;
import com.palantir.javapoet.ParameterizedTypeName;
import com.palantir.javapoet.TypeSpec;
import javax.lang.model.element.Modifier;

/**
 * Generates {@code FooRepository.SnapshotCodec}, a {@code JsonSnapshotCodec}: the aggregate's state as a JSON
 * snapshot body and back, stored with the fingerprint computed here.
 */
final class SnapshotCodecGenerator {

  private SnapshotCodecGenerator() {}

  static TypeSpec generate(AggregateModel model) {
    return GeneratedTypes.nested(
            "SnapshotCodec",
            CodeBlock.of("Reads and writes snapshots of {@link $T} as JSON.", model.type()))
        .superclass(ParameterizedTypeName.get(RuntimeTypes.JSON_SNAPSHOT_CODEC, model.type()))
        .addField(FieldSpec.builder(String.class, "FINGERPRINT", Modifier.PUBLIC, Modifier.STATIC, Modifier.FINAL)
            .addJavadoc("A hash of $T's state shape, of the source of its creating and apply methods and the"
                + " methods of\n$T they call, of its events' upcaster signatures and of"
                + "\n{@code @Aggregate(snapshotVersion = $L)}, computed when it was compiled. A snapshot stored"
                + " with another\nfingerprint was written by other code: it is ignored and the state folded"
                + " from the stream's events.\n", model.type(), model.type(), model.evolution().snapshotVersion())
            .initializer("$S", model.evolution().snapshotFingerprint())
            .build())
        .addMethod(
            MethodSpec.constructorBuilder()
                .addModifiers(Modifier.PUBLIC)
                .addJavadoc("Creates the codec with the mapper the store uses for bodies.\n")
                .addParameter(RuntimeTypes.OBJECT_MAPPER, "mapper")
                .addStatement("super(mapper, $T.class, FINGERPRINT)", model.type())
                .build())
        .build();
  }
}
