package dev.esgen.spring.boot.app;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.esgen.runtime.EventStore;
import dev.esgen.test.ParameterOwnership;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.reflect.Parameter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.test.context.TestConstructor;

/** Which parameters esgen's extensions leave to Spring's, on Spring's own annotations. */
class ParameterOwnershipTest {

  private ExtensionContext context;

  @RegisterExtension
  final BeforeEachCallback contextOfEachTest = each -> context = each;

  @Qualifier
  @Retention(RetentionPolicy.RUNTIME)
  @interface Primary {}

  /** A qualifier of a qualifier: Spring finds annotations at any depth. */
  @Primary
  @Retention(RetentionPolicy.RUNTIME)
  @interface Main {}

  @Retention(RetentionPolicy.RUNTIME)
  @interface Unrelated {}

  static final class Parameters {
    @Autowired
    Parameters(EventStore injected) {}

    Parameters(EventStore plain, String other) {}

    void method(EventStore plain, @Unrelated EventStore unrelated, @Autowired EventStore autowired,
        @Qualifier("x") EventStore qualified, @Value("${x}") EventStore value, @Primary EventStore custom,
        @Main EventStore deeper) {}
  }

  @TestConstructor(autowireMode = TestConstructor.AutowireMode.ALL)
  static final class AllAutowired {
    AllAutowired(EventStore any) {}

    final class Nested {
      Nested(EventStore any) {}
    }
  }

  @TestConstructor(autowireMode = TestConstructor.AutowireMode.ANNOTATED)
  static final class AnnotatedOnly {
    AnnotatedOnly(EventStore plain) {}
  }

  @Test
  void springsAnnotationsAndItsCustomQualifiersAreSpringsAndOthersOurs() throws ReflectiveOperationException {
    Parameter[] parameters = Parameters.class.getDeclaredMethod("method", EventStore.class, EventStore.class,
        EventStore.class, EventStore.class, EventStore.class, EventStore.class, EventStore.class).getParameters();

    assertFalse(ParameterOwnership.belongsToAnotherExtension(parameters[0], context));
    assertFalse(ParameterOwnership.belongsToAnotherExtension(parameters[1], context));
    for (int i = 2; i < parameters.length; i++) {
      assertTrue(ParameterOwnership.belongsToAnotherExtension(parameters[i], context), parameters[i].toString());
    }
  }

  @Test
  void everyParameterOfAConstructorSpringAutowiresIsSprings() throws ReflectiveOperationException {
    assertTrue(owned(Parameters.class.getDeclaredConstructor(EventStore.class).getParameters()[0]));
    assertFalse(owned(Parameters.class.getDeclaredConstructor(EventStore.class, String.class).getParameters()[0]));
    assertTrue(owned(AllAutowired.class.getDeclaredConstructor(EventStore.class).getParameters()[0]));
    // an inner class's constructor takes the enclosing instance first
    assertTrue(owned(AllAutowired.Nested.class.getDeclaredConstructor(AllAutowired.class, EventStore.class)
        .getParameters()[1]), "@TestConstructor counts on the class enclosing a @Nested one too");
    assertFalse(owned(AnnotatedOnly.class.getDeclaredConstructor(EventStore.class).getParameters()[0]));
  }

  private boolean owned(Parameter parameter) {
    return ParameterOwnership.belongsToAnotherExtension(parameter, context);
  }
}
