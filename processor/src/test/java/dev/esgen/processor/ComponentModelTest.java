package dev.esgen.processor;

import static com.google.testing.compile.CompilationSubject.assertThat;
import static com.google.testing.compile.Compiler.javac;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.inject.Guice;
import com.google.inject.Injector;
import com.google.testing.compile.Compilation;
import com.google.testing.compile.JavaFileObjects;
import dev.esgen.runtime.DynamoDbEventStore;
import dev.esgen.runtime.EventStore;
import dev.esgen.runtime.aggregate.AggregateDefinition;
import dev.esgen.runtime.aggregate.LayoutKind;
import dev.esgen.runtime.aggregate.TipPolicy;
import dev.esgen.runtime.config.StoreConfig;
import dev.esgen.runtime.repository.EventSourcedRepository;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.AnnotatedElement;
import java.lang.reflect.Constructor;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.URI;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import javax.tools.Diagnostic;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.stereotype.Component;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * {@code -Aesgen.componentModel}: what each model generates, and real containers building the generated
 * repository by constructor injection from an {@link EventStore} the application binds.
 *
 * <p>Spring and Guice run for real. Micronaut and Quarkus (ArC) build their bean definitions with
 * their own annotation processor or build step, too heavy to run here; what they need of a class is what
 * the jakarta model gives it, checked in {@link #jakartaGivesWhatMicronautAndQuarkusNeed}: a
 * {@code @Singleton} class with exactly one {@code @Inject} constructor and no other injection points.
 */
class ComponentModelTest {

  private static final String REPOSITORY = "fixture.BankAccountRepository";

  private static final List<JavaFileObject> BANK =
      List.of(
          JavaFileObjects.forResource("valid/AccountEvent.java"),
          JavaFileObjects.forResource("valid/AccountOpened.java"),
          JavaFileObjects.forResource("valid/MoneyDeposited.java"),
          JavaFileObjects.forResource("valid/AccountClosed.java"),
          JavaFileObjects.forResource("valid/AccountId.java"),
          JavaFileObjects.forResource("valid/BankAccount.java"));

  /** A real store; building a repository sends no request, so the client points nowhere. */
  private static DynamoDbClient client;
  private static EventStore store;

  @TempDir Path classes;

  @BeforeAll
  static void createStore() {
    client = DynamoDbClient.builder()
        .endpointOverride(URI.create("http://127.0.0.1:9"))
        .region(Region.US_EAST_1)
        .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("x", "x")))
        .httpClient(UrlConnectionHttpClient.create())
        .build();
    store = DynamoDbEventStore.create(client, StoreConfig.defaults());
  }

  @AfterAll
  static void closeClient() {
    client.close();
  }

  private static Compilation compile(String componentModel) {
    return javac()
        .withProcessors(new EsgenProcessor())
        .withOptions("-Aesgen.componentModel=" + componentModel, "-Xlint:all,-processing", "-Werror")
        .compile(BANK);
  }

  private static String repositorySource(Compilation compilation) {
    try {
      return compilation.generatedSourceFile(REPOSITORY).orElseThrow().getCharContent(true).toString();
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }

  /** Writes the compiled classes where a class loader (and Spring's classpath scanning) finds them. */
  private URLClassLoader load(Compilation compilation) throws IOException {
    for (JavaFileObject file : compilation.generatedFiles()) {
      if (file.getKind() != JavaFileObject.Kind.CLASS) {
        continue;
      }
      String path = file.toUri().getPath();
      Path target = classes.resolve(path.substring(path.indexOf("/fixture/") + 1));
      Files.createDirectories(target.getParent());
      try (InputStream in = file.openInputStream()) {
        Files.copy(in, target);
      }
    }
    return new URLClassLoader(new URL[] {classes.toUri().toURL()}, ComponentModelTest.class.getClassLoader());
  }

  private static void assertOnePublicConstructorTakingTheStore(Class<?> repository) {
    Constructor<?>[] constructors = repository.getConstructors();
    assertEquals(1, constructors.length, Arrays.toString(constructors));
    assertEquals(List.of(EventStore.class), List.of(constructors[0].getParameterTypes()));
  }

  private static void assertBuiltOnTheStore(Object repository, Class<?> type) {
    assertTrue(type.isInstance(repository));
    assertEquals("bank-account", ((EventSourcedRepository<?, ?, ?>) repository).definition().name());
  }

  // ---- default

  @Test
  void theDefaultModelGeneratesNoAnnotationsAndOnePublicConstructor() throws Exception {
    Compilation compilation = compile("default");
    assertThat(compilation).succeededWithoutWarnings();
    String source = repositorySource(compilation);
    assertFalse(source.contains("import jakarta."), source);
    assertFalse(source.contains("import org.springframework."), source);
    assertEquals(source, repositorySource(javac().withProcessors(new EsgenProcessor()).compile(BANK)),
        "no option is the default model");

    try (URLClassLoader loader = load(compilation)) {
      Class<?> repository = loader.loadClass(REPOSITORY);
      assertOnePublicConstructorTakingTheStore(repository);
      assertEquals(0, repository.getAnnotations().length);
    }
  }

  /** The definition variant is a named static factory, not a second public constructor. */
  @Test
  void withDefinitionBuildsTheRepositoryOnAnotherDefinition() throws Exception {
    try (URLClassLoader loader = load(compile("default"))) {
      Class<?> repository = loader.loadClass(REPOSITORY);
      AggregateDefinition<?, ?, ?> onTip = ((AggregateDefinition<?, ?, ?>) repository
          .getMethod("definition", com.fasterxml.jackson.databind.ObjectMapper.class)
          .invoke(null, store.objectMapper()))
          .withLayout(LayoutKind.TIP, TipPolicy.defaults());
      Method withDefinition = repository.getMethod("withDefinition", EventStore.class, AggregateDefinition.class);
      assertTrue(Modifier.isStatic(withDefinition.getModifiers()));
      Object built = withDefinition.invoke(null, store, onTip);
      assertSame(onTip, ((EventSourcedRepository<?, ?, ?>) built).definition());
    }
  }

  // ---- jakarta

  @Test
  void jakartaAnnotatesTheClassSingletonAndTheConstructorInject() {
    Compilation compilation = compile("jakarta");
    assertThat(compilation).succeededWithoutWarnings();
    assertThat(compilation)
        .generatedSourceFile(REPOSITORY)
        .contentsAsUtf8String()
        .contains("@Generated(\"dev.esgen.processor.EsgenProcessor\")\n@Singleton\n"
            + "public final class BankAccountRepository");
    assertThat(compilation)
        .generatedSourceFile(REPOSITORY)
        .contentsAsUtf8String()
        .contains("  @Inject\n  public BankAccountRepository(EventStore store) {");
  }

  @Test
  void guiceBuildsTheJakartaRepositoryOnce() throws Exception {
    try (URLClassLoader loader = load(compile("jakarta"))) {
      Class<?> repository = loader.loadClass(REPOSITORY);
      Injector injector = Guice.createInjector(binder -> binder.bind(EventStore.class).toInstance(store));
      Object built = injector.getInstance(repository);
      assertBuiltOnTheStore(built, repository);
      assertSame(built, injector.getInstance(repository), "@Singleton: one repository per injector");
    }
  }

  /** Spring honours jakarta.inject's {@code @Inject} as it does {@code @Autowired}. */
  @Test
  void springBuildsTheJakartaRepositoryWhenRegistered() throws Exception {
    try (URLClassLoader loader = load(compile("jakarta"));
        AnnotationConfigApplicationContext context = new AnnotationConfigApplicationContext()) {
      Class<?> repository = loader.loadClass(REPOSITORY);
      context.setClassLoader(loader);
      context.registerBean(EventStore.class, () -> store);
      context.register(repository);
      context.refresh();
      assertBuiltOnTheStore(context.getBean(repository), repository);
    }
  }

  @Test
  void jakartaGivesWhatMicronautAndQuarkusNeed() throws Exception {
    try (URLClassLoader loader = load(compile("jakarta"))) {
      Class<?> repository = loader.loadClass(REPOSITORY);
      assertTrue(repository.isAnnotationPresent(Singleton.class), "a bean-defining scope");
      assertOnePublicConstructorTakingTheStore(repository);
      List<Constructor<?>> injected = Stream.of(repository.getDeclaredConstructors())
          .filter(constructor -> constructor.isAnnotationPresent(Inject.class))
          .toList();
      assertEquals(List.of(repository.getConstructor(EventStore.class)), injected,
          "exactly one @Inject constructor, the public one");
      List<AnnotatedElement> otherInjectionPoints = Stream.<AnnotatedElement>concat(
              Stream.of(repository.getDeclaredFields()), Stream.of(repository.getDeclaredMethods()))
          .filter(member -> member.isAnnotationPresent(Inject.class))
          .toList();
      assertEquals(List.of(), otherInjectionPoints);
      // A pseudo-scope: neither Quarkus nor Micronaut proxies it, so the class may stay final.
      assertTrue(Modifier.isFinal(repository.getModifiers()));
    }
  }

  // ---- spring

  @Test
  void springAnnotatesTheClassComponentAndTheConstructorAutowired() {
    Compilation compilation = compile("spring");
    assertThat(compilation).succeededWithoutWarnings();
    assertThat(compilation)
        .generatedSourceFile(REPOSITORY)
        .contentsAsUtf8String()
        .contains("@Generated(\"dev.esgen.processor.EsgenProcessor\")\n@Component\n"
            + "public final class BankAccountRepository");
    assertThat(compilation)
        .generatedSourceFile(REPOSITORY)
        .contentsAsUtf8String()
        .contains("  @Autowired\n  public BankAccountRepository(EventStore store) {");
  }

  @Test
  void springFindsTheRepositoryByScanningAndBuildsIt() throws Exception {
    try (URLClassLoader loader = load(compile("spring"));
        AnnotationConfigApplicationContext context = new AnnotationConfigApplicationContext()) {
      Class<?> repository = loader.loadClass(REPOSITORY);
      assertTrue(repository.isAnnotationPresent(Component.class));
      assertTrue(repository.getConstructor(EventStore.class).isAnnotationPresent(Autowired.class));
      context.setClassLoader(loader);
      context.registerBean(EventStore.class, () -> store);
      context.scan("fixture");
      context.refresh();
      Object built = context.getBean(repository);
      assertBuiltOnTheStore(built, repository);
      assertSame(built, context.getBean(repository), "a singleton bean");
      List<String> fromFixture = Stream.of(context.getBeanDefinitionNames())
          .filter(name -> context.getType(name) != null && context.getType(name).getPackageName().equals("fixture"))
          .toList();
      assertEquals(List.of("bankAccountRepository"), fromFixture, "the repository, not its codecs or keys");
    }
  }

  /**
   * An async aggregate has both repositories, and most applications use one kind. Under the spring model
   * both are {@code @Component}s; an application with an {@code EventStore} but no {@code AsyncEventStore}
   * (no DynamoDbAsyncClient), which never injects the async repository, must still start, as it does with
   * the starter's registration (docs/spring-boot.md: async repository beans are lazy).
   */
  @Test
  void springLeavesTheAsyncRepositoryLazySoAnApplicationWithoutAnAsyncStoreStarts() throws Exception {
    Compilation compilation = javac()
        .withProcessors(new EsgenProcessor())
        .withOptions("-Aesgen.componentModel=spring")
        .compile(JavaFileObjects.forResource("async/Wallet.java"));
    assertThat(compilation).succeeded();
    try (URLClassLoader loader = load(compilation);
        AnnotationConfigApplicationContext context = new AnnotationConfigApplicationContext()) {
      context.setClassLoader(loader);
      context.registerBean(EventStore.class, () -> store);
      context.scan("fixture");
      context.refresh();
      Object wallets = context.getBean(loader.loadClass("fixture.WalletRepository"));
      assertEquals("wallet", ((EventSourcedRepository<?, ?, ?>) wallets).definition().name());
    }
  }

  // ---- mistakes

  @Test
  void anUnknownModelIsOneErrorNamingTheOptionAndTheAllowedValues() {
    Compilation compilation = javac()
        .withProcessors(new EsgenProcessor())
        .withOptions("-Aesgen.componentModel=guice")
        .compile(Stream.concat(BANK.stream(), Stream.of(JavaFileObjects.forResource("names/Shelf.java"))).toList());
    assertThat(compilation).failed();
    assertThat(compilation).hadErrorContaining(
        "[esgen:unknown-component-model] -Aesgen.componentModel=guice is not a component model: use one of default,"
            + " jakarta, spring (for example -Aesgen.componentModel=spring)");
    assertEquals(1, compilation.errors().size(), "once, not per aggregate: " + compilation.errors());
  }

  @Test
  void anOptionWithoutAValueIsTheSameError() {
    Compilation compilation =
        javac().withProcessors(new EsgenProcessor()).withOptions("-Aesgen.componentModel").compile(BANK);
    assertThat(compilation).hadErrorContaining("-Aesgen.componentModel= is not a component model: use one of");
  }

  @Test
  void jakartaWithoutJakartaInjectIsAnErrorOnTheAggregateNamingTheDependency() {
    JavaFileObject aggregate = BANK.get(BANK.size() - 1);
    Compilation compilation = javac()
        .withProcessors(new EsgenProcessor())
        .withOptions("-Aesgen.componentModel=jakarta")
        .withClasspath(classPathWithout("jakarta.inject-api"))
        .compile(BANK);
    assertThat(compilation)
        .hadErrorContaining("[esgen:component-model-dependency] -Aesgen.componentModel=jakarta annotates"
            + " BankAccountRepository with @jakarta.inject.Singleton and @jakarta.inject.Inject, which are not on"
            + " the compile class path: add the dependency jakarta.inject:jakarta.inject-api to the project, or"
            + " choose another component model (default, jakarta, spring)")
        .inFile(aggregate)
        .onLineContaining("@Aggregate(");
    assertOnlyEsgenErrors(compilation);
  }

  @Test
  void springWithoutSpringIsAnErrorOnTheAggregateNamingTheDependency() {
    JavaFileObject aggregate = BANK.get(BANK.size() - 1);
    Compilation compilation = javac()
        .withProcessors(new EsgenProcessor())
        .withOptions("-Aesgen.componentModel=spring")
        .withClasspath(classPathWithout("spring-"))
        .compile(BANK);
    assertThat(compilation)
        .hadErrorContaining("[esgen:component-model-dependency] -Aesgen.componentModel=spring annotates"
            + " BankAccountRepository with @org.springframework.stereotype.Component and"
            + " @org.springframework.beans.factory.annotation.Autowired, which are not on the compile class path:"
            + " add the dependency org.springframework:spring-context to the project")
        .inFile(aggregate)
        .onLineContaining("@Aggregate(");
    assertOnlyEsgenErrors(compilation);
  }

  /** The test class path minus the jars whose file name starts with {@code prefix}. */
  private static List<File> classPathWithout(String prefix) {
    List<File> path = Stream.of(System.getProperty("java.class.path").split(File.pathSeparator))
        .map(File::new)
        .filter(file -> !file.getName().startsWith(prefix))
        .toList();
    assertTrue(path.stream().anyMatch(file -> file.getPath().contains("esgen-runtime")
        || file.getPath().contains("runtime" + File.separator + "target")), "the runtime is on " + path);
    return path;
  }

  /** Generated code naming a missing annotation would add javac errors in files the user never wrote. */
  private static void assertOnlyEsgenErrors(Compilation compilation) {
    for (Diagnostic<? extends JavaFileObject> error : compilation.errors()) {
      assertTrue(error.getMessage(null).startsWith("[esgen:component-model-dependency]"), error.getMessage(null));
    }
  }
}
