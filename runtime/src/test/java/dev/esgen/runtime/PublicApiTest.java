package dev.esgen.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.esgen.runtime.config.StoreConfig;
import dev.esgen.runtime.counter.CounterRepository;
import dev.esgen.runtime.internal.StoreAccess;
import dev.esgen.runtime.testing.AsyncDynamo;
import dev.esgen.runtime.testing.TestDynamo;
import java.io.IOException;
import java.lang.reflect.Executable;
import java.lang.reflect.Field;
import java.lang.reflect.GenericArrayType;
import java.lang.reflect.Member;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.lang.reflect.TypeVariable;
import java.lang.reflect.WildcardType;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;

/**
 * What users can reach of the runtime: no public type outside {@code dev.esgen.runtime.internal} shows an
 * internal type in its supertypes or in a member a user can call or override, and the stores users create
 * offer only their own few methods.
 */
class PublicApiTest {

  private static final String INTERNAL = "dev.esgen.runtime.internal";

  @Test
  void noPublicTypeOutsideInternalShowsAnInternalType() throws Exception {
    List<String> leaks = new ArrayList<>();
    for (Class<?> type : publicRuntimeTypes()) {
      List<Type> supertypes = new ArrayList<>(Arrays.asList(type.getGenericInterfaces()));
      if (type.getGenericSuperclass() != null) {
        supertypes.add(type.getGenericSuperclass());
      }
      for (Type supertype : supertypes) {
        if (mentionsInternal(supertype, new TreeSet<>())) {
          leaks.add(type.getName() + " extends or implements " + supertype.getTypeName());
        }
      }
      for (Method method : type.getDeclaredMethods()) {
        if (reachable(method) && !method.isSynthetic() && !method.isBridge() && mentionsInternal(method)) {
          leaks.add(type.getName() + "." + method.getName() + " " + method.toGenericString());
        }
      }
      for (var constructor : type.getDeclaredConstructors()) {
        if (reachable(constructor) && mentionsInternal(constructor)) {
          leaks.add(type.getName() + " constructor " + constructor.toGenericString());
        }
      }
      for (Field field : type.getDeclaredFields()) {
        if (reachable(field) && mentionsInternal(field.getGenericType(), new TreeSet<>())) {
          leaks.add(type.getName() + "." + field.getName());
        }
      }
    }
    assertEquals(List.of(), leaks, "internal types in the public API");
  }

  @Test
  void theStoresUsersCreateOfferOnlyTheirOwnMethods() {
    assertEquals(Set.of("create", "config", "objectMapper", "provisioner", "withAsyncClient"),
        publicMethodNames(DynamoDbEventStore.class));
    assertEquals(Set.of("create", "config", "objectMapper"), publicMethodNames(DynamoDbAsyncEventStore.class));
  }

  @Test
  void esgenReachesTheInternalsOfItsOwnStoresOnly() {
    DynamoDbEventStore store = TestDynamo.store();
    assertTrue(StoreAccess.internals(store).isPresent());
    try (DynamoDbAsyncClient asyncClient = AsyncDynamo.client()) {
      assertTrue(StoreAccess.internals(store.withAsyncClient(asyncClient)).isPresent());
      assertTrue(StoreAccess.internals(DynamoDbAsyncEventStore.create(asyncClient, StoreConfig.defaults())).isPresent());
    }
    EventStore foreign = store::objectMapper;
    assertTrue(StoreAccess.internals(foreign).isEmpty());
    IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> new CounterRepository(foreign));
    assertTrue(refused.getMessage().contains("is not a store esgen made"), refused.getMessage());
  }

  private static Set<String> publicMethodNames(Class<?> type) {
    return Arrays.stream(type.getDeclaredMethods())
        .filter(method -> Modifier.isPublic(method.getModifiers()) && !method.isSynthetic())
        .map(Method::getName)
        .collect(Collectors.toCollection(TreeSet::new));
  }

  /** Public and protected members of a public type: what a user can call, or override in a subclass. */
  private static boolean reachable(Member member) {
    int modifiers = member.getModifiers();
    return Modifier.isPublic(modifiers) || Modifier.isProtected(modifiers) && !Modifier.isFinal(member.getDeclaringClass().getModifiers());
  }

  private static boolean mentionsInternal(Executable executable) {
    List<Type> types = new ArrayList<>(Arrays.asList(executable.getGenericParameterTypes()));
    types.addAll(Arrays.asList(executable.getGenericExceptionTypes()));
    if (executable instanceof Method method) {
      types.add(method.getGenericReturnType());
    }
    return types.stream().anyMatch(type -> mentionsInternal(type, new TreeSet<>()));
  }

  private static boolean mentionsInternal(Type type, Set<String> seenVariables) {
    if (type instanceof Class<?> plain) {
      Class<?> element = plain;
      while (element.isArray()) {
        element = element.getComponentType();
      }
      return element.getName().startsWith(INTERNAL + ".");
    }
    if (type instanceof ParameterizedType parameterized) {
      return mentionsInternal(parameterized.getRawType(), seenVariables)
          || Arrays.stream(parameterized.getActualTypeArguments()).anyMatch(arg -> mentionsInternal(arg, seenVariables));
    }
    if (type instanceof WildcardType wildcard) {
      return Stream.concat(Arrays.stream(wildcard.getUpperBounds()), Arrays.stream(wildcard.getLowerBounds()))
          .anyMatch(bound -> mentionsInternal(bound, seenVariables));
    }
    if (type instanceof GenericArrayType array) {
      return mentionsInternal(array.getGenericComponentType(), seenVariables);
    }
    if (type instanceof TypeVariable<?> variable) {
      return seenVariables.add(variable.getName())
          && Arrays.stream(variable.getBounds()).anyMatch(bound -> mentionsInternal(bound, seenVariables));
    }
    return false;
  }

  /** The public top-level and nested types of the runtime outside its internal packages. */
  private static List<Class<?>> publicRuntimeTypes() throws IOException, URISyntaxException, ClassNotFoundException {
    Path classes = Path.of(EventStore.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    List<String> names;
    try (Stream<Path> files = Files.walk(classes.resolve("dev/esgen/runtime"))) {
      names = files.map(classes::relativize)
          .map(Path::toString)
          .filter(name -> name.endsWith(".class") && !name.contains("package-info"))
          .map(name -> name.substring(0, name.length() - ".class".length()).replace('/', '.').replace('\\', '.'))
          .filter(name -> !name.startsWith(INTERNAL + "."))
          .sorted()
          .toList();
    }
    List<Class<?>> types = new ArrayList<>();
    for (String name : names) {
      Class<?> type = Class.forName(name, false, PublicApiTest.class.getClassLoader());
      if (isPublicAllTheWayOut(type)) {
        types.add(type);
      }
    }
    assertTrue(types.contains(DynamoDbEventStore.class), "the scan found the runtime's classes in " + classes);
    return types;
  }

  private static boolean isPublicAllTheWayOut(Class<?> type) {
    for (Class<?> enclosing = type; enclosing != null; enclosing = enclosing.getEnclosingClass()) {
      if (!Modifier.isPublic(enclosing.getModifiers()) || enclosing.isAnonymousClass() || enclosing.isLocalClass()) {
        return false;
      }
    }
    return true;
  }
}
