package dev.esgen.testkit.memory;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.esgen.runtime.EventStore;
import dev.esgen.runtime.internal.StoreAccess;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * What a test sees of the in-memory store: its own few methods, none of the internals repositories reach
 * (those go through {@link StoreAccess}, as for the DynamoDB stores).
 */
class InMemoryEventStoreApiTest {

  @Test
  void offersOnlyItsOwnMethods() {
    assertArrayEquals(new Class<?>[] {EventStore.class}, InMemoryEventStore.class.getInterfaces());
    Set<String> methods = Arrays.stream(InMemoryEventStore.class.getDeclaredMethods())
        .filter(method -> Modifier.isPublic(method.getModifiers()) && !method.isSynthetic())
        .map(Method::getName)
        .collect(Collectors.toCollection(TreeSet::new));
    assertEquals(Set.of("async", "config", "create", "objectMapper", "seed", "toString"), methods);
  }

  @Test
  void repositoriesStillReachItsInternalsAndThoseOfItsAsyncTwin() {
    InMemoryEventStore store = InMemoryEventStore.create();
    assertTrue(StoreAccess.internals(store).isPresent());
    assertTrue(StoreAccess.internals(store.async()).isPresent());
  }
}
