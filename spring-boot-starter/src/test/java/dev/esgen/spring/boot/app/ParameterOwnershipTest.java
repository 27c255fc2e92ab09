package dev.esgen.spring.boot.app;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.esgen.runtime.EventStore;
import dev.esgen.test.ParameterOwnership;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.reflect.Parameter;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.beans.factory.annotation.Value;

/** Which parameters esgen's extensions leave to Spring's, on Spring's own annotations. */
class ParameterOwnershipTest {

  @Qualifier
  @Retention(RetentionPolicy.RUNTIME)
  @interface Primary {}

  @Retention(RetentionPolicy.RUNTIME)
  @interface Unrelated {}

  static final class Parameters {
    @Autowired
    Parameters(EventStore injected) {}

    Parameters(EventStore plain, String other) {}

    void method(EventStore plain, @Unrelated EventStore unrelated, @Autowired EventStore autowired,
        @Qualifier("x") EventStore qualified, @Value("${x}") EventStore value, @Primary EventStore custom) {}
  }

  @Test
  void springsAnnotationsAndItsCustomQualifiersAreSpringsAndOthersOurs() throws ReflectiveOperationException {
    Parameter[] parameters = Parameters.class.getDeclaredMethod("method", EventStore.class, EventStore.class,
        EventStore.class, EventStore.class, EventStore.class, EventStore.class).getParameters();

    assertFalse(ParameterOwnership.belongsToAnotherExtension(parameters[0]));
    assertFalse(ParameterOwnership.belongsToAnotherExtension(parameters[1]));
    for (int i = 2; i < parameters.length; i++) {
      assertTrue(ParameterOwnership.belongsToAnotherExtension(parameters[i]), parameters[i].toString());
    }
  }

  @Test
  void everyParameterOfAnAutowiredConstructorIsSprings() throws ReflectiveOperationException {
    assertTrue(ParameterOwnership.belongsToAnotherExtension(
        Parameters.class.getDeclaredConstructor(EventStore.class).getParameters()[0]));
    assertFalse(ParameterOwnership.belongsToAnotherExtension(
        Parameters.class.getDeclaredConstructor(EventStore.class, String.class).getParameters()[0]));
  }
}
