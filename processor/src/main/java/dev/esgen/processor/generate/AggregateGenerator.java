package dev.esgen.processor.generate;

import com.palantir.javapoet.JavaFile;
import com.palantir.javapoet.TypeSpec;
import dev.esgen.processor.model.AggregateModel;
import java.io.IOException;
import java.util.List;
import javax.annotation.processing.Filer;

/** Writes every source file generated for one aggregate. */
public final class AggregateGenerator {

  private final Filer filer;

  public AggregateGenerator(Filer filer) {
    this.filer = filer;
  }

  /** All the types generated for {@code model}, built before any is written. */
  public static List<TypeSpec> types(AggregateModel model) {
    return List.of(
        KeysGenerator.generate(model),
        EventCodecGenerator.generate(model),
        SnapshotCodecGenerator.generate(model),
        ReplayGenerator.generate(model),
        IndexColumnsGenerator.generate(model),
        RepositoryGenerator.generate(model));
  }

  /**
   * Writes the generated types of {@code model}.
   *
   * @throws GenerationException naming the file that could not be written
   */
  public void generate(AggregateModel model) throws GenerationException {
    for (TypeSpec type : types(model)) {
      JavaFile file = JavaFile.builder(model.type().packageName(), type).skipJavaLangImports(true).build();
      try {
        file.writeTo(filer);
      } catch (IOException e) {
        throw new GenerationException(model.type().packageName() + "." + type.name(), e);
      }
    }
  }

  /** A generated file could not be written. */
  public static final class GenerationException extends Exception {
    private static final long serialVersionUID = 1L;

    private final String file;

    GenerationException(String file, IOException cause) {
      super(file + ": " + cause.getMessage(), cause);
      this.file = file;
    }

    /** The qualified name of the type that could not be written. */
    public String file() {
      return file;
    }
  }
}
