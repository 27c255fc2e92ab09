package dev.esgen.runtime.aggregate;

/**
 * Knows an aggregate's id: how to read it from the state and how to write and parse its string form.
 *
 * <p>The processor generates {@code FooRepository.Keys} for aggregate {@code Foo}. The string form is what every
 * DynamoDB key of the aggregate is built from, so it must never change for a stored aggregate.
 *
 * <pre>{@code
 * AggregateKeys<BankAccount, AccountId> keys = new BankAccountRepository.Keys();
 * String aid = keys.idString(account.id());      // "5f0c...": the UUID's string form
 * AccountId id = keys.parseId(aid);
 * }</pre>
 *
 * @param <A> the aggregate type
 * @param <I> its id type
 */
public interface AggregateKeys<A, I> {

  /** The id of {@code state}: the value of its {@code @AggregateId} component. */
  I idOf(A state);

  /**
   * The id's stored string form. Generated keys check it with {@link AggregateIds#requireValid}, so a
   * string no key can hold never reaches DynamoDB.
   *
   * @throws dev.esgen.runtime.error.InvalidIdException when the string form is empty or longer than the
   *     aggregate's keys allow
   */
  String idString(I id);

  /** The id whose stored string form is {@code idString}. */
  I parseId(String idString);
}
