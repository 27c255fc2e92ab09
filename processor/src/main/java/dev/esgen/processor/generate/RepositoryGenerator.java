package dev.esgen.processor.generate;

import com.palantir.javapoet.CodeBlock;
import com.palantir.javapoet.MethodSpec;
import com.palantir.javapoet.ParameterizedTypeName;
import com.palantir.javapoet.TypeName;
import com.palantir.javapoet.TypeSpec;
import dev.esgen.processor.model.AggregateModel;
import dev.esgen.processor.model.AggregateOptions;
import java.time.Duration;
import javax.lang.model.element.Modifier;

/** Generates {@code FooRepository}: the typed repository services receive, and the aggregate's definition. */
final class RepositoryGenerator {

  private RepositoryGenerator() {}

  static TypeSpec generate(AggregateModel model) {
    TypeName[] typeArguments = {model.type(), model.id().type(), model.eventsType()};
    TypeName definitionType = ParameterizedTypeName.get(RuntimeTypes.AGGREGATE_DEFINITION, typeArguments);
    AggregateOptions options = model.options();

    CodeBlock.Builder policy =
        CodeBlock.builder().add("$T.every($L)", RuntimeTypes.SNAPSHOT_POLICY, options.snapshotEvery());
    if (options.snapshotsToKeep() != 0) {
      policy.add(".keeping($L)", options.snapshotsToKeep());
    }
    options.snapshotTtl().ifPresent(ttl -> policy.add(".expiringAfter($T.parse($S))", Duration.class, ttl));

    CodeBlock.Builder definition =
        CodeBlock.builder()
            .add("return $T.<$T, $T, $T>builder($S, $T.class)\n", RuntimeTypes.AGGREGATE_DEFINITION,
                model.type(), model.id().type(), model.eventsType(), model.name(), model.type())
            .indent()
            .add(".keys(new $T())\n", model.generated("Keys"))
            .add(".eventCodec(new $T(mapper))\n", model.generated("EventCodec"))
            .add(".snapshotCodec(new $T(mapper))\n", model.generated("SnapshotCodec"))
            .add(".replay(new $T())\n", model.generated("Replay"))
            .add(".indexColumns(new $T())\n", model.generated("IndexColumns"))
            .add(".shards($L)\n", options.shards())
            .add(".snapshotPolicy($L)\n", policy.build());
    options.tip().ifPresent(tip -> definition
        .add(".layout($T.TIP)\n", RuntimeTypes.LAYOUT_KIND)
        .add(".tipPolicy(new $T($L, $L, $L))\n", RuntimeTypes.TIP_POLICY, tip.maxBytes(), tip.maxEvents(),
            tip.snapshot()));
    definition.add(".build()").unindent();

    return GeneratedTypes.start(
            model,
            "Repository",
            CodeBlock.builder()
                .add("The typed repository for {@link $T}, stored as aggregate type {@code $S}.\n\n", model.type(),
                    model.name())
                .add("<p>Construct it with the application's store, directly or through dependency injection:\n")
                .add("<pre>{@code\n$T repository = new $T(store);\n}</pre>\n", model.generated("Repository"),
                    model.generated("Repository"))
                .add("Its create, append, transact and find operations come from {@link $T}.",
                    RuntimeTypes.EVENT_SOURCED_REPOSITORY)
                .build())
        .superclass(ParameterizedTypeName.get(RuntimeTypes.EVENT_SOURCED_REPOSITORY, typeArguments))
        .addMethod(
            MethodSpec.constructorBuilder()
                .addModifiers(Modifier.PUBLIC)
                .addJavadoc("Creates the repository over {@code store}, whose mapper reads and writes bodies.\n")
                .addParameter(RuntimeTypes.EVENT_STORE, "store")
                .addStatement("super(store, definition(store.objectMapper()))")
                .build())
        .addMethod(
            MethodSpec.methodBuilder("definition")
                .addJavadoc("The definition of aggregate type {@code $S}, with codecs over {@code mapper}.\n",
                    model.name())
                .addModifiers(Modifier.PUBLIC, Modifier.STATIC)
                .returns(definitionType)
                .addParameter(RuntimeTypes.OBJECT_MAPPER, "mapper")
                .addStatement("$L", definition.build())
                .build())
        .build();
  }
}
