package dev.esgen.processor;

import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.CodeBlock;
import com.palantir.javapoet.MethodSpec;
import com.palantir.javapoet.NameAllocator;
import com.palantir.javapoet.ParameterizedTypeName;
import com.palantir.javapoet.TypeName;
import com.palantir.javapoet.TypeSpec;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import javax.lang.model.element.Modifier;

/**
 * Generates {@code FooRepository}: the typed repository services receive, the aggregate's definition and,
 * nested in it, the classes the definition is made of ({@code Keys}, {@code EventCodec},
 * {@code SnapshotCodec}, {@code Replay} and, when there are index columns, {@code IndexColumns}).
 */
final class RepositoryGenerator {

  private static final ClassName COMPLETABLE_FUTURE = ClassName.get(CompletableFuture.class);

  private RepositoryGenerator() {}

  static TypeSpec generate(AggregateModel model) {
    TypeName[] typeArguments = {model.type(), model.id().type(), model.eventsType()};
    TypeName definitionType = ParameterizedTypeName.get(RuntimeTypes.AGGREGATE_DEFINITION, typeArguments);
    AggregateOptions options = model.options();
    ClassName repositoryType = model.generated("Repository");

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
            // A statement's continuation lines are indented already: no indent of its own.
            .add(".keys(new $T())\n", model.nested("Keys"))
            .add(".eventCodec(new $T(mapper))\n", model.nested("EventCodec"))
            .add(".snapshotCodec(new $T(mapper))\n", model.nested("SnapshotCodec"))
            .add(".replay(new $T())\n", model.nested("Replay"))
            .add(model.columns().isEmpty()
                ? CodeBlock.of(".indexColumns($T.none())\n", RuntimeTypes.INDEX_COLUMNS)
                : CodeBlock.of(".indexColumns(new $T())\n", model.nested("IndexColumns")))
            .add(".shards($L)\n", options.shards())
            .add(".snapshotPolicy($L)\n", policy.build());
    options.tip().ifPresent(tip -> definition
        .add(".layout($T.TIP)\n", RuntimeTypes.LAYOUT_KIND)
        .add(".tipPolicy(new $T($L, $L, $L))\n", RuntimeTypes.TIP_POLICY, tip.maxBytes(), tip.maxEvents(),
            tip.snapshot()));
    definition.add(".build()");

    TypeSpec.Builder repository = GeneratedTypes.start(
            model,
            "Repository",
            CodeBlock.builder()
                .add("The typed repository for {@link $T}, stored as aggregate type {@code $S}.\n\n", model.type(),
                    model.name())
                .add("<p>Construct it with the application's store, directly or through dependency injection:\n")
                .add("<pre>{@code\n$T repository = new $T(store);\n}</pre>\n", repositoryType, repositoryType)
                .add(injection(model.componentModel()))
                .add("Its operations (create, load, transact, append, findById, findAll, listAll, events, reindex,"
                    + " ...) come\nfrom {@link $T}$L", RuntimeTypes.EVENT_SOURCED_REPOSITORY, lookupsNote(model))
                .build())
        .superclass(ParameterizedTypeName.get(RuntimeTypes.EVENT_SOURCED_REPOSITORY, typeArguments));
    MethodSpec.Builder constructor = MethodSpec.constructorBuilder()
        .addModifiers(Modifier.PUBLIC)
        .addJavadoc("Creates the repository over {@code store}, whose mapper reads and writes bodies.\n")
        .addParameter(RuntimeTypes.EVENT_STORE, "store")
        .addStatement("super(store, definition(store.objectMapper()))");
    model.componentModel().typeAnnotation().ifPresent(repository::addAnnotation);
    model.componentModel().constructorAnnotation().ifPresent(constructor::addAnnotation);
    GeneratedTypes.suppress(repository, model.suppressedWarnings().repository());
    repository
        .addMethod(constructor.build())
        .addMethod(
            MethodSpec.constructorBuilder()
                .addModifiers(Modifier.PRIVATE)
                .addParameter(RuntimeTypes.EVENT_STORE, "store")
                .addParameter(definitionType, "definition")
                .addStatement("super(store, definition)")
                .build())
        .addMethod(
            MethodSpec.methodBuilder("withDefinition")
                .addJavadoc("A repository over {@code store} with {@code definition}: {@link #definition} or a copy"
                    + " of it with other storage\nsettings, e.g."
                    + " {@code definition(mapper).withLayout(LayoutKind.$L, TipPolicy.defaults())} to run the same"
                    + "\ncode on another layout in a test. Its name, keys and index columns must be the generated"
                    + " ones$L\n\n<p>A static method rather than a second constructor:"
                    + " dependency-injection containers build the\nrepository through its one public constructor.\n",
                    model.options().tip().isPresent() ? "JOURNAL" : "TIP",
                    model.columns().isEmpty() ? "." : ":\nthe lookups below use them.")
                .addModifiers(Modifier.PUBLIC, Modifier.STATIC)
                .returns(repositoryType)
                .addParameter(RuntimeTypes.EVENT_STORE, "store")
                .addParameter(definitionType, "definition")
                .addStatement("return new $T(store, definition)", repositoryType)
                .build())
        .addMethod(
            MethodSpec.methodBuilder("definition")
                .addJavadoc("The definition of aggregate type {@code $S}, with codecs over {@code mapper}.\n",
                    model.name())
                .addModifiers(Modifier.PUBLIC, Modifier.STATIC)
                .returns(definitionType)
                .addParameter(RuntimeTypes.OBJECT_MAPPER, "mapper")
                .addStatement("$L", definition.build())
                .build());
    for (ColumnModel column : model.columns()) {
      addLookups(repository, model, column, false);
    }
    repository
        .addType(KeysGenerator.generate(model))
        .addType(EventCodecGenerator.generate(model))
        .addType(SnapshotCodecGenerator.generate(model))
        .addType(ReplayGenerator.generate(model));
    if (!model.columns().isEmpty()) {
      repository.addType(IndexColumnsGenerator.generate(model));
    }
    return repository.build();
  }

  /**
   * Generates {@code FooAsyncRepository} for {@code @Aggregate(async = true)}: the lookups of
   * {@code FooRepository} answered with futures, over the definition {@code FooRepository} builds.
   */
  static TypeSpec generateAsync(AggregateModel model) {
    TypeName[] typeArguments = {model.type(), model.id().type(), model.eventsType()};
    TypeName definitionType = ParameterizedTypeName.get(RuntimeTypes.AGGREGATE_DEFINITION, typeArguments);
    ClassName repositoryType = model.generated("AsyncRepository");
    TypeSpec.Builder repository = GeneratedTypes.start(
            model,
            "AsyncRepository",
            CodeBlock.builder()
                .add("The asynchronous typed repository for {@link $T}, stored as aggregate type {@code $S}:\nevery"
                    + " operation answers with a {@link $T} and blocks no thread.\n\n", model.type(), model.name(),
                    COMPLETABLE_FUTURE)
                .add("<p>Construct it with an {@link $T}, directly or through dependency injection:\n",
                    RuntimeTypes.ASYNC_EVENT_STORE)
                .add("<pre>{@code\n$T repository = new $T(store);\n}</pre>\n", repositoryType, repositoryType)
                .add("Its operations (create, load, transact, append, findById, findAll, listAll, ...) come from\n"
                    + "{@link $T}$L\nFutures fail with esgen's exceptions themselves, and callbacks run on the"
                    + " thread that completed\nthe request: see docs/async.md.",
                    RuntimeTypes.ASYNC_EVENT_SOURCED_REPOSITORY, lookupsNote(model))
                .build())
        .superclass(ParameterizedTypeName.get(RuntimeTypes.ASYNC_EVENT_SOURCED_REPOSITORY, typeArguments));
    MethodSpec.Builder constructor = MethodSpec.constructorBuilder()
        .addModifiers(Modifier.PUBLIC)
        .addJavadoc("Creates the repository over {@code store}, whose mapper reads and writes bodies.\n")
        .addParameter(RuntimeTypes.ASYNC_EVENT_STORE, "store")
        .addStatement("super(store, $T.definition(store.objectMapper()))", model.generated("Repository"));
    model.componentModel().typeAnnotation().ifPresent(repository::addAnnotation);
    model.componentModel().asyncTypeAnnotation().ifPresent(repository::addAnnotation);
    model.componentModel().constructorAnnotation().ifPresent(constructor::addAnnotation);
    GeneratedTypes.suppress(repository, model.suppressedWarnings().asyncRepository());
    repository
        .addMethod(constructor.build())
        .addMethod(
            MethodSpec.constructorBuilder()
                .addModifiers(Modifier.PRIVATE)
                .addParameter(RuntimeTypes.ASYNC_EVENT_STORE, "store")
                .addParameter(definitionType, "definition")
                .addStatement("super(store, definition)")
                .build())
        .addMethod(
            MethodSpec.methodBuilder("withDefinition")
                .addJavadoc("A repository over {@code store} with {@code definition}, as"
                    + " {@link $T#withDefinition}.\n", model.generated("Repository"))
                .addModifiers(Modifier.PUBLIC, Modifier.STATIC)
                .returns(repositoryType)
                .addParameter(RuntimeTypes.ASYNC_EVENT_STORE, "store")
                .addParameter(definitionType, "definition")
                .addStatement("return new $T(store, definition)", repositoryType)
                .build());
    for (ColumnModel column : model.columns()) {
      addLookups(repository, model, column, true);
    }
    return repository.build();
  }

  /** A sentence on how a dependency-injection container builds the repository under the component model. */
  private static CodeBlock injection(ComponentModel componentModel) {
    return switch (componentModel) {
      case DEFAULT -> CodeBlock.of("For a container, build it in a {@code @Bean} or {@code @Provides} method, or"
          + " generate it with\n{@code -Aesgen.componentModel=jakarta} or {@code spring} to have the container find"
          + " it.\n");
      case JAKARTA -> CodeBlock.of("A jakarta.inject container (Guice, Dagger, Micronaut, Quarkus, Spring) builds one"
          + " instance through the\n{@code @Inject} constructor once the application binds an {@code EventStore}.\n");
      case SPRING -> CodeBlock.of("Spring's component scanning finds it, and builds it through the {@code @Autowired}"
          + " constructor from the\napplication's {@code EventStore} bean.\n");
    };
  }

  /**
   * The typed lookups of {@code column}; for the asynchronous repository their results come in futures,
   * and what the synchronous ones throw fails the future instead.
   */
  private static void addLookups(TypeSpec.Builder repository, AggregateModel model, ColumnModel column, boolean async) {
    String suffix = Character.toUpperCase(column.property().charAt(0)) + column.property().substring(1);
    ClassName columns = model.nested("IndexColumns");
    NameAllocator names = new NameAllocator();
    GeneratedTypes.reserveNamesOf(columns, names);
    String parameter = names.newName(column.property());
    CodeBlock columnRef = CodeBlock.of("$T.$L", columns, IndexColumnsGenerator.constant(column));
    CodeBlock value = CodeBlock.of("$T.$L($N)", columns, IndexColumnsGenerator.encoder(column), parameter);
    String aggregate = GeneratedTypes.display(model.type());
    String nullNote = column.form() == ColumnModel.ValueForm.PRIMITIVE
        ? ""
        : "A null {@code " + parameter + "} is never indexed: aggregates whose " + column.property()
            + " is null are not found, and\npassing null " + (async ? "fails the future with" : "throws")
            + " {@link IllegalArgumentException}.\n";
    TypeName optional = answer(ParameterizedTypeName.get(ClassName.get(Optional.class), model.type()), async);
    TypeName single = answer(model.type(), async);
    String notFound = async ? "@return fails with {@link $T} when no $L has it\n" : "@throws $T when no $L has it\n";
    if (column.unique()) {
      String consistency = "The value (compared " + IndexColumnsGenerator.compared(column) + ") is looked up through"
          + " its uniqueness reservation\nwith a strongly consistent read, so an aggregate created or changed by"
          + " a completed append is found\nat once (unless this aggregate type's reads are made eventually"
          + " consistent in the store's config).\n";
      repository.addMethod(MethodSpec.methodBuilder("loadBy" + suffix)
          .addJavadoc("The $L whose {@code $L} is {@code $N}.\n\n<p>$L$L\n", aggregate, column.property(), parameter,
              consistency, nullNote)
          .addJavadoc(notFound, RuntimeTypes.VALUE_NOT_FOUND, aggregate)
          .addModifiers(Modifier.PUBLIC)
          .returns(single)
          .addParameter(column.type(), parameter)
          .addStatement("return loadByUnique($L,$W$L)", columnRef, value)
          .build());
      repository.addMethod(MethodSpec.methodBuilder("findBy" + suffix)
          .addJavadoc("The $L whose {@code $L} is {@code $N}, if any.\n\n<p>$L$L", aggregate, column.property(),
              parameter, consistency, nullNote)
          .addModifiers(Modifier.PUBLIC)
          .returns(optional)
          .addParameter(column.type(), parameter)
          .addStatement("return findByUnique($L,$W$L)", columnRef, value)
          .build());
      return;
    }
    String consistency = "Found through a global secondary index, which is eventually consistent: an append"
        + " that just set\nthis value may not be visible for a moment. Every aggregate returned is loaded (with a"
        + " strongly\nconsistent read, unless this aggregate type's reads are made eventually consistent in the"
        + " store's\nconfig) and still holds the value.\n";
    repository.addMethod(MethodSpec.methodBuilder("loadBy" + suffix)
        .addJavadoc("The $L with the smallest id string (in UTF-8 byte order) among those whose {@code $L} is"
            + "\n{@code $N}.\n\n<p>$L$L\n", aggregate, column.property(), parameter, consistency, nullNote)
        .addJavadoc(notFound, RuntimeTypes.VALUE_NOT_FOUND, aggregate)
        .addModifiers(Modifier.PUBLIC)
        .returns(single)
        .addParameter(column.type(), parameter)
        .addStatement("return loadByIndex($L,$W$L)", columnRef, value)
        .build());
    repository.addMethod(MethodSpec.methodBuilder("findBy" + suffix)
        .addJavadoc("The $L with the smallest id string (in UTF-8 byte order) among those whose {@code $L} is"
            + "\n{@code $N}, if any.\n\n<p>$L$L", aggregate, column.property(), parameter, consistency, nullNote)
        .addModifiers(Modifier.PUBLIC)
        .returns(optional)
        .addParameter(column.type(), parameter)
        .addStatement("return findByIndex($L,$W$L)", columnRef, value)
        .build());
    // A column named "page" takes the parameter name the page request has everywhere else.
    String page = parameter.equals("page") ? "pageRequest" : "page";
    repository.addMethod(MethodSpec.methodBuilder("listBy" + suffix)
        .addJavadoc("A page of the $L aggregates whose {@code $L} is {@code $N}, ordered by id string (its UTF-8"
            + "\nbytes); pass the page's {@code nextCursor()} to {@link $T#after} for the next one.\n\n<p>$L A page"
            + " may hold fewer\nthan {@code $N.size()} items while more follow; only an empty cursor ends the"
            + " listing.\n$L",
            aggregate, column.property(), parameter, RuntimeTypes.PAGE_REQUEST, consistency.strip(), page, nullNote)
        .addModifiers(Modifier.PUBLIC)
        .returns(answer(ParameterizedTypeName.get(RuntimeTypes.PAGE, model.type()), async))
        .addParameter(column.type(), parameter)
        .addParameter(RuntimeTypes.PAGE_REQUEST, page)
        .addStatement("return listByIndex($L,$W$L,$W$N)", columnRef, value, page)
        .build());
  }

  /** The end of the sentence naming the operations the repository inherits: where its lookups are. */
  private static String lookupsNote(AggregateModel model) {
    return model.columns().isEmpty() ? "." : "; the lookups by its index columns are generated here.";
  }

  /** What a lookup returns: {@code type} itself, or for the asynchronous repository a future of it. */
  private static TypeName answer(TypeName type, boolean async) {
    return async ? ParameterizedTypeName.get(COMPLETABLE_FUTURE, type) : type;
  }
}
