package dev.esgen.processor;

import com.palantir.javapoet.ClassName;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Which dependency-injection annotations generated repositories carry, chosen for a whole compilation
 * with {@code -Aesgen.componentModel=...}, as MapStruct's {@code mapstruct.defaultComponentModel}.
 *
 * <p>The annotation types are named, never loaded: the processor does not depend on any container, and
 * checks that the user's compile class path has them before generating code that uses them.
 */
enum ComponentModel {

  /** No annotations: the application constructs the repository, or a {@code @Bean} / {@code @Provides} method does. */
  DEFAULT("default", Optional.empty(), Optional.empty(), "", List.of()),

  /**
   * {@code @jakarta.inject.Singleton} on the class and {@code @jakarta.inject.Inject} on its constructor:
   * what Guice 7, Dagger, Micronaut and Quarkus look for, and what Spring honours too. Singleton, not
   * a scope that proxies: the repository is final and holds nothing besides its store and definition.
   */
  JAKARTA(
      "jakarta",
      Optional.of(ClassName.get("jakarta.inject", "Singleton")),
      Optional.of(ClassName.get("jakarta.inject", "Inject")),
      "jakarta.inject:jakarta.inject-api",
      List.of("jakarta.inject")),

  /**
   * {@code @Component} on the class, for component scanning, and {@code @Autowired} on its constructor:
   * Spring picks a constructor by itself only when a class declares exactly one, and the private
   * constructor behind {@code withDefinition} makes two. Not {@code @Repository}: that marks the bean
   * for Spring's persistence-exception translation, which would proxy the final class (and fail) while
   * having no DynamoDB exceptions to translate.
   */
  SPRING(
      "spring",
      Optional.of(ClassName.get("org.springframework.stereotype", "Component")),
      Optional.of(ClassName.get("org.springframework.beans.factory.annotation", "Autowired")),
      "org.springframework:spring-context",
      List.of("spring.context", "spring.beans"));

  /** The processor option, {@code -Aesgen.componentModel=spring}. */
  public static final String OPTION = "esgen.componentModel";

  private final String optionValue;
  private final Optional<ClassName> typeAnnotation;
  private final Optional<ClassName> constructorAnnotation;
  private final String dependency;
  private final List<String> modules;

  ComponentModel(
      String optionValue,
      Optional<ClassName> typeAnnotation,
      Optional<ClassName> constructorAnnotation,
      String dependency,
      List<String> modules) {
    this.optionValue = optionValue;
    this.typeAnnotation = typeAnnotation;
    this.constructorAnnotation = constructorAnnotation;
    this.dependency = dependency;
    this.modules = modules;
  }

  /** The model the option value names, such as {@code "spring"}; empty for any other value. */
  public static Optional<ComponentModel> forOptionValue(String value) {
    return Arrays.stream(values()).filter(model -> model.optionValue.equals(value)).findFirst();
  }

  /** Every value the option accepts, in declaration order. */
  public static List<String> optionValues() {
    return Arrays.stream(values()).map(ComponentModel::optionValue).toList();
  }

  /** How the option names this model. */
  public String optionValue() {
    return optionValue;
  }

  /** The annotation on the repository class. */
  public Optional<ClassName> typeAnnotation() {
    return typeAnnotation;
  }

  /**
   * The annotation that makes the container create the async repository only when something injects it:
   * every async aggregate has a synchronous repository too, and an application that uses only that one
   * has no {@code AsyncEventStore} to build the async one from. Spring creates singletons eagerly, hence
   * {@code @Lazy} (in spring-context, beside {@code @Component}); jakarta.inject containers create a
   * {@code @Singleton} only when it is asked for.
   */
  public Optional<ClassName> asyncTypeAnnotation() {
    return this == SPRING ? Optional.of(ClassName.get("org.springframework.context.annotation", "Lazy")) : Optional.empty();
  }

  /** The annotation on the repository's public constructor. */
  public Optional<ClassName> constructorAnnotation() {
    return constructorAnnotation;
  }

  /** Every annotation type this model generates, which must be on the user's compile class path. */
  public List<ClassName> annotations() {
    return Stream.of(typeAnnotation, constructorAnnotation).flatMap(Optional::stream).toList();
  }

  /** The Maven coordinates ({@code groupId:artifactId}) that provide {@link #annotations()}. */
  public String dependency() {
    return dependency;
  }

  /**
   * The modules (automatic or not) of {@link #annotations()}, which a named module requires: Spring's
   * {@code @Autowired} is in {@code spring.beans}, not beside {@code @Component}.
   */
  public List<String> modules() {
    return modules;
  }
}
