package dev.esgen.testkit.junit;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Gives a JUnit 5 test class a ready {@link dev.esgen.runtime.EventStore} and a
 * {@link dev.esgen.testkit.time.MutableClock} the store stamps events with: declare parameters of those
 * types in the constructor, in {@code @BeforeAll}, {@code @BeforeEach} and the other lifecycle methods, or
 * in tests, and {@link EsgenTestExtension} passes them.
 *
 * <pre>{@code
 * @EsgenTest
 * class TransferServiceTest {
 *   private final BankAccountRepository accounts;
 *   private final TransferService service;
 *
 *   TransferServiceTest(EventStore store, MutableClock clock) {
 *     accounts = new BankAccountRepository(store);
 *     service = new TransferService(accounts, new TransferRepository(store), clock);
 *   }
 *
 *   @Test
 *   void movesMoney() { ... }
 * }
 * }</pre>
 *
 * <p>The store is in memory unless {@link #backend()} or the configuration parameter
 * {@value Backend#PROPERTY} say {@code dynamodb-local}; the test code is the same for both. Each test class
 * gets a store and a clock of its own, created before its first test and dropped (or, on DynamoDB Local,
 * its tables deleted) after its last; its tests share them, as they would share tables, so give each test
 * its own aggregate ids and unique values. A {@code @Nested} class shares its enclosing class's, unless it
 * carries {@code @EsgenTest} itself: then it gets a store and clock of its own, with its own settings. Classes
 * may run in parallel; so may the tests of a class, as the store is thread-safe (the clock is shared by
 * them: a test that moves it should not run beside one that reads it). Before each test the clock is set
 * back to {@link #clockStart()}, so no test sees the time another one moved it to.
 *
 * <p>A parameter of type {@link dev.esgen.runtime.AsyncEventStore} gets the same store for
 * {@code FooAsyncRepository}: the same streams, sharing the store's state cache, on either backend:
 *
 * <pre>{@code
 * @EsgenTest
 * class AccountApiTest {
 *   @Test
 *   void opensAnAccount(AsyncEventStore store) {
 *     BankAccountAsyncRepository accounts = new BankAccountAsyncRepository(store);
 *     accounts.create(new AccountOpened(id, "Ann")).join();
 *   }
 * }
 * }</pre>
 *
 * <p>A parameter of those types that another extension reads is left to it: {@code @Mock EventStore store}
 * is Mockito's, {@code @Autowired EventStore store} Spring's (see {@link dev.esgen.test.ParameterOwnership}).
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@ExtendWith(EsgenTestExtension.class)
public @interface EsgenTest {

  /** Where the events are stored; by default as {@value Backend#PROPERTY} says, in memory when unset. */
  Backend backend() default Backend.CONFIGURED;

  /**
   * The instant, in ISO-8601 ({@code Instant.parse}), the clock shows at the start of each test until it moves
   * it.
   */
  String clockStart() default "2026-01-01T00:00:00Z";
}
