package dev.esgen.processor.generate;

import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.CodeBlock;
import com.palantir.javapoet.FieldSpec;
import com.palantir.javapoet.MethodSpec;
import com.palantir.javapoet.NameAllocator;
import com.palantir.javapoet.ParameterizedTypeName;
import com.palantir.javapoet.TypeName;
import com.palantir.javapoet.TypeSpec;
import dev.esgen.processor.model.AggregateModel;
import dev.esgen.processor.model.ColumnModel;
import dev.esgen.processor.model.ColumnModel.ValueForm;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.lang.model.element.Modifier;

/** Generates {@code FooIndexColumns}: the names of the indexed and unique columns and their values. */
final class IndexColumnsGenerator {

  private IndexColumnsGenerator() {}

  static TypeSpec generate(AggregateModel model) {
    TypeName columnList = ParameterizedTypeName.get(ClassName.get(List.class), RuntimeTypes.INDEX_COLUMN);
    TypeName valueMap = ParameterizedTypeName.get(Map.class, String.class, String.class);

    CodeBlock.Builder columns = CodeBlock.builder();
    for (int i = 0; i < model.columns().size(); i++) {
      ColumnModel column = model.columns().get(i);
      columns.add(i == 0 ? "" : ", ").add("new $T($S, $L)", RuntimeTypes.INDEX_COLUMN, column.name(), column.unique());
    }

    MethodSpec.Builder values =
        MethodSpec.methodBuilder("values")
            .addAnnotation(Override.class)
            .addModifiers(Modifier.PUBLIC)
            .returns(valueMap)
            .addParameter(model.type(), "state");
    if (model.columns().isEmpty()) {
      values.addStatement("return $T.of()", Map.class);
    } else {
      NameAllocator names = new NameAllocator();
      names.newName("state");
      names.newName("values");
      values.addStatement("$T values = new $T<>()", valueMap, LinkedHashMap.class);
      for (ColumnModel column : model.columns()) {
        addValue(values, column, names);
      }
      values.addStatement("return values");
    }

    return GeneratedTypes.start(
            model,
            "IndexColumns",
            CodeBlock.of(
                "The indexed and unique columns of {@link $T} and how their values are read from its state.",
                model.type()))
        .addSuperinterface(ParameterizedTypeName.get(RuntimeTypes.INDEX_COLUMNS, model.type()))
        .addField(
            FieldSpec.builder(columnList, "COLUMNS", Modifier.PRIVATE, Modifier.STATIC, Modifier.FINAL)
                .initializer("$T.of($L)", List.class, columns.build())
                .build())
        .addMethod(
            MethodSpec.methodBuilder("columns")
                .addAnnotation(Override.class)
                .addModifiers(Modifier.PUBLIC)
                .returns(columnList)
                .addStatement("return COLUMNS")
                .build())
        .addMethod(values.build())
        .build();
  }

  private static void addValue(MethodSpec.Builder values, ColumnModel column, NameAllocator names) {
    String read = column.access().readFrom("state");
    if (column.form() == ValueForm.PRIMITIVE) {
      values.addStatement("values.put($S, $T.valueOf($L))", column.name(), String.class, read);
      return;
    }
    String variable = names.newName(column.name());
    values.addStatement("$T $N = $L", column.type(), variable, read);
    if (column.form() == ValueForm.WRAPPER) {
      ColumnModel.Wrapped wrapped = column.wrapped().orElseThrow();
      String inner = variable + "." + wrapped.accessor() + "()";
      if (wrapped.form() == ValueForm.PRIMITIVE) {
        values.beginControlFlow("if ($N != null)", variable);
      } else {
        values.beginControlFlow("if ($N != null && $L != null)", variable, inner);
      }
      values.addStatement("values.put($S, $L)", column.name(), stringForm(inner, wrapped.form()));
    } else {
      values
          .beginControlFlow("if ($N != null)", variable)
          .addStatement("values.put($S, $L)", column.name(), stringForm(variable, column.form()));
    }
    values.endControlFlow();
  }

  private static CodeBlock stringForm(String expression, ValueForm form) {
    return switch (form) {
      case PRIMITIVE -> CodeBlock.of("$T.valueOf($L)", String.class, expression);
      case STRING -> CodeBlock.of("$L", expression);
      case ENUM -> CodeBlock.of("$L.name()", expression);
      case WRAPPER, OTHER -> CodeBlock.of("$L.toString()", expression);
    };
  }
}
