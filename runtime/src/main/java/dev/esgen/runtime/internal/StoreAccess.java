package dev.esgen.runtime.internal;

import dev.esgen.runtime.AsyncEventStore;
import dev.esgen.runtime.EventStore;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * How esgen's own code reaches the {@link StoreInternals} of a store a user handed it, without the store
 * classes users see carrying those internals as public methods. Each store class says, once, when it is
 * loaded, how to get from one of its instances to its internals; a repository, the change feed or the
 * Spring starter then asks here. Users never call it: they only hand stores to repositories.
 *
 * <pre>{@code
 * public final class DynamoDbEventStore implements EventStore {
 *   static {
 *     StoreAccess.register(DynamoDbEventStore.class, store -> store.internals);
 *   }
 *   ...
 * }
 *
 * StoreInternals internals = StoreAccess.internals(store)
 *     .orElseThrow(() -> new IllegalArgumentException("not a store esgen made"));
 * }</pre>
 *
 * <p>A class is registered from its own static initializer, which runs before its first instance is
 * built, so any instance handed here finds its class registered. Store classes are final: an instance's
 * exact class is looked up.
 */
public final class StoreAccess {

  private static final Map<Class<?>, Function<Object, StoreInternals>> STORES = new ConcurrentHashMap<>();
  private static final Map<Class<?>, Function<Object, AsyncStoreInternals>> ASYNC_STORES = new ConcurrentHashMap<>();

  private StoreAccess() {}

  /** Makes {@code internals} the way to the internals of every instance of {@code storeClass}. */
  public static <S extends EventStore> void register(Class<S> storeClass, Function<? super S, ? extends StoreInternals> internals) {
    Objects.requireNonNull(internals, "internals");
    STORES.put(Objects.requireNonNull(storeClass, "storeClass"), store -> internals.apply(storeClass.cast(store)));
  }

  /** Makes {@code internals} the way to the internals of every instance of the asynchronous {@code storeClass}. */
  public static <S extends AsyncEventStore> void registerAsync(Class<S> storeClass,
      Function<? super S, ? extends AsyncStoreInternals> internals) {
    Objects.requireNonNull(internals, "internals");
    ASYNC_STORES.put(Objects.requireNonNull(storeClass, "storeClass"), store -> internals.apply(storeClass.cast(store)));
  }

  /** The internals of {@code store}; empty when its class is not one of esgen's stores. */
  public static Optional<StoreInternals> internals(EventStore store) {
    Function<Object, StoreInternals> access = STORES.get(Objects.requireNonNull(store, "store").getClass());
    return access == null ? Optional.empty() : Optional.of(access.apply(store));
  }

  /** The internals of the asynchronous {@code store}; empty when its class is not one of esgen's stores. */
  public static Optional<AsyncStoreInternals> internals(AsyncEventStore store) {
    Function<Object, AsyncStoreInternals> access = ASYNC_STORES.get(Objects.requireNonNull(store, "store").getClass());
    return access == null ? Optional.empty() : Optional.of(access.apply(store));
  }
}
