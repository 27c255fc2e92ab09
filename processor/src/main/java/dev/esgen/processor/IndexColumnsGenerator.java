package dev.esgen.processor;

import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.CodeBlock;
import com.palantir.javapoet.FieldSpec;
import com.palantir.javapoet.MethodSpec;
import com.palantir.javapoet.NameAllocator;
import com.palantir.javapoet.ParameterizedTypeName;
import com.palantir.javapoet.TypeName;
import com.palantir.javapoet.TypeSpec;
import dev.esgen.processor.ColumnModel.ValueForm;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.lang.model.element.Modifier;

/**
 * Generates {@code FooRepository.IndexColumns}: a constant per indexed or unique column, a static method per
 * column that turns a value into its stored string form, and the {@code IndexColumns} the runtime reads
 * values through. It is the only generated class that knows the column names and how to read them. An
 * aggregate without index columns gets none: its definition uses {@code IndexColumns.none()}.
 */
final class IndexColumnsGenerator {

  private IndexColumnsGenerator() {}

  /** The constant naming {@code column} in {@code FooRepository.IndexColumns}: {@code EMAIL} for {@code email}. */
  static String constant(ColumnModel column) {
    return ColumnModel.constantFor(column.property());
  }

  /** The static method encoding a value of {@code column}: {@code encodeEmail}. */
  static String encoder(ColumnModel column) {
    return "encode" + Character.toUpperCase(column.property().charAt(0)) + column.property().substring(1);
  }

  static TypeSpec generate(AggregateModel model) {
    TypeName columnList = ParameterizedTypeName.get(ClassName.get(List.class), RuntimeTypes.INDEX_COLUMN);
    TypeName valueMap = ParameterizedTypeName.get(Map.class, String.class, String.class);
    TypeSpec.Builder type = GeneratedTypes.nested(
            "IndexColumns",
            CodeBlock.of(
                "The indexed and unique columns of {@link $T}, how their values are read from its state and"
                    + "\nturned into their stored string form.",
                model.type()))
        .addSuperinterface(ParameterizedTypeName.get(RuntimeTypes.INDEX_COLUMNS, model.type()));

    CodeBlock.Builder all = CodeBlock.builder();
    int slot = 0;
    for (int i = 0; i < model.columns().size(); i++) {
      ColumnModel column = model.columns().get(i);
      FieldSpec.Builder field = FieldSpec.builder(
          RuntimeTypes.INDEX_COLUMN, constant(column), Modifier.PUBLIC, Modifier.STATIC, Modifier.FINAL);
      if (column.unique()) {
        field.addJavadoc("The {@code @Unique} column {@code $L}, compared $L.\n", column.name(), compared(column))
            .initializer("$T.unique($S, $T.$L)", RuntimeTypes.INDEX_COLUMN, column.name(),
                RuntimeTypes.NORMALIZATION, column.normalization());
      } else {
        field.addJavadoc("The {@code @Indexed} column {@code $L}, in index slot $L.\n", column.name(), slot++)
            .initializer("$T.indexed($S)", RuntimeTypes.INDEX_COLUMN, column.name());
      }
      type.addField(field.build());
      all.add(i == 0 ? "$L" : ", $L", constant(column));
    }
    // Lower case, unlike every column constant, so that a column named "all" cannot clash with it.
    type.addField(FieldSpec.builder(columnList, "all", Modifier.PRIVATE, Modifier.STATIC, Modifier.FINAL)
        .initializer("$T.of($L)", List.class, all.build())
        .build());

    type.addMethod(GeneratedTypes.noArgConstructor());
    for (ColumnModel column : model.columns()) {
      type.addMethod(encoderMethod(column));
    }

    MethodSpec.Builder values = MethodSpec.methodBuilder("values")
        .addAnnotation(Override.class)
        .addModifiers(Modifier.PUBLIC)
        .returns(valueMap)
        .addParameter(model.type(), "state");
    NameAllocator names = new NameAllocator();
    names.newName("state");
    names.newName("values");
    // A local named like a constant would hide it: a column "SKU" reads into SKU_, beside constant SKU.
    for (ColumnModel column : model.columns()) {
      names.newName(constant(column));
    }
    values.addStatement("$T values = new $T<>()", valueMap, LinkedHashMap.class);
    for (ColumnModel column : model.columns()) {
      String read = column.access().readFrom("state");
      if (column.form() == ValueForm.PRIMITIVE) {
        values.addStatement("values.put($L.name(), $L($L))", constant(column), encoder(column), read);
      } else {
        String variable = names.newName(column.property());
        values.addStatement("$T $N = $L($L)", String.class, variable, encoder(column), read)
            .beginControlFlow("if ($N != null)", variable)
            .addStatement("values.put($L.name(), $N)", constant(column), variable)
            .endControlFlow();
      }
    }
    values.addStatement("return values");

    return type
        .addMethod(MethodSpec.methodBuilder("columns")
            .addAnnotation(Override.class)
            .addModifiers(Modifier.PUBLIC)
            .returns(columnList)
            .addStatement("return all")
            .build())
        .addMethod(values.build())
        .build();
  }

  private static MethodSpec encoderMethod(ColumnModel column) {
    NameAllocator names = new NameAllocator();
    GeneratedTypes.reserveNamesOf(RuntimeTypes.INDEX_VALUES, names);
    String parameter = names.newName(column.property());
    MethodSpec.Builder method = MethodSpec.methodBuilder(encoder(column))
        .addModifiers(Modifier.PUBLIC, Modifier.STATIC)
        .returns(String.class)
        .addParameter(column.type(), parameter);
    // A normalised @Unique column stores its reservation normalised: this is the form before that.
    CodeBlock form = column.unique() && !column.normalization().equals("EXACT")
        ? CodeBlock.of("The string form, before the column's {@code $L} normalisation\n(reservations and lookups"
            + " apply {@link $T#normalize}),", column.normalization(), RuntimeTypes.INDEX_COLUMN)
        : CodeBlock.of("The stored form");
    switch (column.form()) {
      case PRIMITIVE -> method
          .addJavadoc("$L of a value of the {@code $L} column.\n", form, column.name())
          .addStatement("return $T.of($N)", RuntimeTypes.INDEX_VALUES, parameter);
      case OBJECT -> method
          .addJavadoc("$L of a value of the {@code $L} column;\nnull for null, which is not indexed.\n", form,
              column.name())
          .addStatement("return $N == null ? null : $T.of($N)", parameter, RuntimeTypes.INDEX_VALUES, parameter);
      case WRAPPER -> {
        ColumnModel.Wrapped wrapped = column.wrapped().orElseThrow();
        method.addJavadoc("$L of a value of the {@code $L} column, that of its {@code $L};\nnull when $L is null,"
            + " which is not indexed.\n", form, column.name(), wrapped.accessor(),
            wrapped.primitive() ? "the value" : "either");
        if (wrapped.primitive()) {
          method.addStatement("return $N == null ? null : $T.of($N.$L())", parameter, RuntimeTypes.INDEX_VALUES,
              parameter, wrapped.accessor());
        } else {
          method.addStatement("return $N == null || $N.$L() == null ? null : $T.of($N.$L())", parameter, parameter,
              wrapped.accessor(), RuntimeTypes.INDEX_VALUES, parameter, wrapped.accessor());
        }
      }
    }
    return method.build();
  }

  static String compared(ColumnModel column) {
    return switch (column.normalization()) {
      case "EXACT" -> "exactly";
      case "CASE_INSENSITIVE" -> "ignoring case";
      default -> "after " + column.normalization() + " normalisation";
    };
  }
}
