package dev.esgen.runtime.aggregate;

/**
 * Folds events into aggregate state: the generated dispatch from each event type to its handler.
 *
 * <p>The processor generates {@code FooRepository.Replay} for aggregate {@code Foo}; it calls the aggregate's own
 * static creating method and {@code apply} methods through a type switch, without reflection.
 *
 * <pre>{@code
 * Replay<BankAccount, AccountEvent> replay = new BankAccountRepository.Replay();
 * BankAccount account = replay.create(opened);
 * account = replay.apply(account, deposited);
 * }</pre>
 *
 * @param <A> the aggregate type
 * @param <E> the sealed root of its events
 */
public interface Replay<A, E> {

  /**
   * Creates the aggregate from the first event of its stream.
   *
   * @throws dev.esgen.runtime.error.UnexpectedEventException if {@code event} cannot start a stream
   */
  A create(E event);

  /**
   * Applies one later event to the state.
   *
   * @throws dev.esgen.runtime.error.UnexpectedEventException if {@code event} has no apply handler
   */
  A apply(A state, E event);
}
