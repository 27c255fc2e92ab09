package dev.esgen.processor;

import com.google.auto.service.AutoService;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import javax.annotation.processing.AbstractProcessor;
import javax.annotation.processing.ProcessingEnvironment;
import javax.annotation.processing.Processor;
import javax.annotation.processing.RoundEnvironment;
import javax.annotation.processing.SupportedOptions;
import javax.lang.model.SourceVersion;
import javax.lang.model.element.Element;
import javax.lang.model.element.TypeElement;
import javax.tools.Diagnostic;

/**
 * The esgen annotation processor: for every {@code @Aggregate} type it validates the aggregate and its
 * events, builds a model, and generates the repository, codecs, keys, replay and index columns.
 *
 * <p>Each aggregate is handled on its own: its errors abandon only it, an aggregate that refers to types
 * not generated yet is retried in the next round, and an unexpected exception becomes a compile error on
 * the aggregate instead of a crashed javac. The processor never claims annotations.
 *
 * <p>Option {@code -Aesgen.componentModel=default|jakarta|spring} chooses the dependency-injection
 * annotations of the generated repositories (see {@link ComponentModel}).
 */
@AutoService(Processor.class)
@SupportedOptions(ComponentModel.OPTION)
public final class EsgenProcessor extends AbstractProcessor {

  /** Aggregates deferred to the next round, by qualified name: elements do not outlive their round. */
  private final Set<String> deferred = new LinkedHashSet<>();

  /** Stored aggregate names claimed so far in this compilation, to the aggregate that claimed each. */
  private final Map<String, String> aggregateNames = new HashMap<>();

  private final CompiledTypes compiledTypes = new CompiledTypes();

  private ErrorReporter errors;
  private AggregateAnalyzer analyzer;
  private AggregateGenerator generator;
  private MisplacedAnnotations misplaced;
  private UnlistedUpcasters unlistedUpcasters;

  @Override
  public synchronized void init(ProcessingEnvironment processingEnv) {
    super.init(processingEnv);
    errors = new ErrorReporter(processingEnv.getMessager(), compiledTypes);
    UnresolvedAnnotations unresolved = new UnresolvedAnnotations(SnapshotFingerprinter.treesOf(processingEnv));
    analyzer = new AggregateAnalyzer(
        processingEnv.getElementUtils(), processingEnv.getTypeUtils(), errors, aggregateNames, compiledTypes,
        componentModel(), new SnapshotFingerprinter(processingEnv), unresolved);
    generator = new AggregateGenerator(processingEnv.getFiler(), processingEnv.getElementUtils(), compiledTypes);
    misplaced = new MisplacedAnnotations(processingEnv.getElementUtils(), processingEnv.getTypeUtils(), errors,
        unresolved);
    unlistedUpcasters =
        new UnlistedUpcasters(processingEnv.getElementUtils(), processingEnv.getTypeUtils(), errors);
  }

  /**
   * The component model the option names. An unknown value is reported here, once for the compilation,
   * and the repositories are generated with none: the build fails on that one error instead of on
   * every use of a repository that was not generated.
   */
  private ComponentModel componentModel() {
    Map<String, String> options = processingEnv.getOptions();
    if (!options.containsKey(ComponentModel.OPTION)) {
      return ComponentModel.DEFAULT;
    }
    // -Aesgen.componentModel without "=value" arrives as null
    String value = Objects.requireNonNullElse(options.get(ComponentModel.OPTION), "");
    return ComponentModel.forOptionValue(value).orElseGet(() -> {
      processingEnv.getMessager().printMessage(Diagnostic.Kind.ERROR,
          Messages.unknownComponentModel(ComponentModel.OPTION, value, ComponentModel.optionValues()));
      return ComponentModel.DEFAULT;
    });
  }

  @Override
  public Set<String> getSupportedAnnotationTypes() {
    return Set.of(Annotations.AGGREGATE, Annotations.AGGREGATE_ID, Annotations.INDEXED, Annotations.UNIQUE,
        Annotations.UPCAST, Annotations.EVENT_TYPE);
  }

  @Override
  public SourceVersion getSupportedSourceVersion() {
    return SourceVersion.latestSupported();
  }

  @Override
  public boolean process(Set<? extends TypeElement> annotations, RoundEnvironment round) {
    compiledTypes.addRoots(round);
    misplaced.check(round);
    unlistedUpcasters.collect(round);
    List<TypeElement> aggregates = new ArrayList<>();
    Set<String> waiting = new LinkedHashSet<>(deferred);
    deferred.clear();
    for (String name : waiting) {
      TypeElement type = processingEnv.getElementUtils().getTypeElement(name);
      if (type != null) {
        aggregates.add(type);
      }
    }
    TypeElement aggregate = processingEnv.getElementUtils().getTypeElement(Annotations.AGGREGATE);
    if (aggregate != null) {
      for (Element element : round.getElementsAnnotatedWith(aggregate)) {
        if (element instanceof TypeElement type && !waiting.contains(type.getQualifiedName().toString())) {
          aggregates.add(type);
        }
      }
    }
    for (TypeElement type : aggregates) {
      processAggregate(type, round.processingOver());
    }
    if (round.processingOver()) {
      unlistedUpcasters.report();
    }
    return false;
  }

  private void processAggregate(TypeElement type, boolean lastRound) {
    String name = type.getQualifiedName().toString();
    try {
      AggregateModel model = analyzer.analyze(type);
      generator.generate(model);
    } catch (DeferAggregateException e) {
      if (lastRound) {
        errors.error(type, Messages.unresolvedType(type.getSimpleName().toString(), e.unresolvedTypes()));
      } else {
        deferred.add(name);
      }
    } catch (AbortAggregateException e) {
      // Its errors were reported on the elements at fault; the other aggregates go on.
    } catch (AggregateGenerator.NameTakenException e) {
      errors.error(type, Messages.generatedNameTaken(e.name(), type.getSimpleName().toString()));
    } catch (AggregateGenerator.GenerationException e) {
      errors.error(type, Messages.writeFailed(e.file(), String.valueOf(e.getCause().getMessage())));
    } catch (RuntimeException | LinkageError e) {
      StringWriter trace = new StringWriter();
      e.printStackTrace(new PrintWriter(trace));
      processingEnv
          .getMessager()
          .printMessage(Diagnostic.Kind.ERROR, Messages.internalError(name, trace.toString()), type);
    }
  }
}
