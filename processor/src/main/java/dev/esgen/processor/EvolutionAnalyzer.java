package dev.esgen.processor;

import com.palantir.javapoet.ClassName;
import dev.esgen.processor.HandlerAnalyzer.Handler;
import dev.esgen.processor.HandlerAnalyzer.Handlers;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.AnnotationValue;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.PackageElement;
import javax.lang.model.element.TypeElement;
import javax.lang.model.util.Elements;

/**
 * Everything about reading what older code stored: the event versions and upcasters
 * ({@link UpcasterAnalyzer}) and the snapshot fingerprint ({@link SnapshotFingerprinter}), with
 * {@code @Aggregate(snapshotVersion)}.
 */
final class EvolutionAnalyzer {

  private final Elements elements;
  private final ErrorReporter errors;
  private final UpcasterAnalyzer upcasters;
  private final SnapshotFingerprinter fingerprinter;

  EvolutionAnalyzer(Elements elements, ErrorReporter errors, UpcasterAnalyzer upcasters,
      SnapshotFingerprinter fingerprinter) {
    this.elements = elements;
    this.errors = errors;
    this.upcasters = upcasters;
    this.fingerprinter = fingerprinter;
  }

  /**
   * The aggregate's evolution model; errors are reported on the elements at fault, and the model is
   * only used when there were none.
   *
   * @param handlers the aggregate's checked handlers; the creating one may be missing (reported already)
   */
  EvolutionModel analyze(TypeElement type, AnnotationMirror aggregate, EventHierarchy events,
      Map<TypeElement, String> storedNames, Handlers handlers, PackageElement generatedPackage) {
    AnnotationValue snapshotVersion = Annotations.value(elements, aggregate, "snapshotVersion");
    int version = (Integer) snapshotVersion.getValue();
    if (version < 1) {
      errors.error(type, aggregate, snapshotVersion, Messages.invalidSnapshotVersion(version));
    }
    UpcasterAnalyzer.Versions versions = upcasters.analyze(type, events, storedNames, generatedPackage);
    List<ExecutableElement> handlerMethods = new ArrayList<>();
    if (handlers.creator != null) {
      handlerMethods.add(handlers.creator.method());
    }
    for (Handler handler : handlers.handlers) {
      handlerMethods.add(handler.method());
    }
    Map<ClassName, StoredTypeModel> current = new LinkedHashMap<>();
    versions.current().forEach((event, stored) -> current.put(ClassName.get(event), stored));
    return new EvolutionModel(current, versions.retired(),
        fingerprinter.fingerprint(type, handlerMethods, versions.methods(), version), version);
  }
}
