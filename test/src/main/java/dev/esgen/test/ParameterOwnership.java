package dev.esgen.test;

import java.lang.annotation.Annotation;
import java.lang.reflect.AnnotatedElement;
import java.lang.reflect.Constructor;
import java.lang.reflect.Parameter;
import java.util.Set;

/**
 * Tells which test parameters another JUnit extension resolves, so that esgen's extensions leave them
 * alone: JUnit fails a parameter two resolvers claim ("competing ParameterResolvers"), and a test that
 * asks Mockito for a mock {@code EventStore} or Spring for its {@code DynamoDbClient} bean means that one.
 *
 * <p>A parameter belongs to another extension when it carries Mockito's {@code @Mock}, or Spring's
 * {@code @Autowired}, {@code @Qualifier} or {@code @Value} (directly or on an annotation of its own, as
 * Spring's custom qualifiers are), or when it is a parameter of a constructor annotated with Spring's
 * {@code @Autowired}. The annotations are recognised by name, so neither library need be on the class path.
 *
 * <pre>{@code
 * public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
 *   return parameter.getParameter().getType() == DynamoDbClient.class
 *       && !ParameterOwnership.belongsToAnotherExtension(parameter.getParameter());
 * }
 * }</pre>
 */
public final class ParameterOwnership {

  private static final String AUTOWIRED = "org.springframework.beans.factory.annotation.Autowired";

  /** The annotations by which Mockito's and Spring's JUnit extensions take a parameter. */
  private static final Set<String> CLAIMING = Set.of(
      "org.mockito.Mock",
      AUTOWIRED,
      "org.springframework.beans.factory.annotation.Qualifier",
      "org.springframework.beans.factory.annotation.Value");

  private ParameterOwnership() {}

  /** Whether another extension resolves {@code parameter}, by the annotations this class names. */
  public static boolean belongsToAnotherExtension(Parameter parameter) {
    for (Annotation annotation : parameter.getAnnotations()) {
      if (claiming(annotation) || carriesClaiming(annotation.annotationType())) {
        return true;
      }
    }
    return parameter.getDeclaringExecutable() instanceof Constructor<?> constructor
        && annotatedWith(constructor, AUTOWIRED);
  }

  private static boolean claiming(Annotation annotation) {
    return CLAIMING.contains(annotation.annotationType().getName());
  }

  private static boolean carriesClaiming(AnnotatedElement annotationType) {
    for (Annotation meta : annotationType.getAnnotations()) {
      if (claiming(meta)) {
        return true;
      }
    }
    return false;
  }

  private static boolean annotatedWith(AnnotatedElement element, String annotationName) {
    for (Annotation annotation : element.getAnnotations()) {
      if (annotation.annotationType().getName().equals(annotationName)) {
        return true;
      }
    }
    return false;
  }
}
