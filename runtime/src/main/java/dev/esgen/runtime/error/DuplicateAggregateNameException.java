package dev.esgen.runtime.error;

/**
 * Two different aggregate types were given to one store under the same stored name. The name prefixes
 * every key of a type's streams, so the two would read and overwrite each other's data; the store
 * refuses the second repository when it is constructed, before anything is read or written.
 *
 * <p>The processor refuses such a pair when it compiles both; this catches pairs it compiled apart (in
 * separate modules, or libraries), which first meet in one application. Give one of them another
 * {@code @Aggregate(name = ...)} before any of its data is written.
 *
 * <pre>{@code
 * EventStore store = DynamoDbEventStore.create(client, StoreConfig.defaults());
 * new BankAccountRepository(store);        // claims "bank-account"
 * new SavingsAccountRepository(store);     // also named "bank-account": throws
 * // "aggregate name 'bank-account' is used by com.example.bank.BankAccount and by
 * //  com.example.savings.SavingsAccount ..."
 * }</pre>
 */
public class DuplicateAggregateNameException extends EsgenException {

  private static final long serialVersionUID = 1L;

  private final String aggregateName;
  private final String registeredType;
  private final String rejectedType;

  /**
   * @param registeredType the class name of the aggregate type that claimed the name first
   * @param rejectedType the class name of the aggregate type refused
   */
  public DuplicateAggregateNameException(String aggregateName, String registeredType, String rejectedType) {
    super("aggregate name '" + aggregateName + "' is used by " + registeredType + " and by " + rejectedType
        + ": every aggregate type needs a name of its own, because the name prefixes all of its keys; give one of"
        + " them another @Aggregate(name = ...) before any of its data is written");
    this.aggregateName = aggregateName;
    this.registeredType = registeredType;
    this.rejectedType = rejectedType;
  }

  /** The stored name both aggregate types claim. */
  public String aggregateName() {
    return aggregateName;
  }

  /** The class name of the aggregate type that claimed the name first. */
  public String registeredType() {
    return registeredType;
  }

  /** The class name of the aggregate type refused. */
  public String rejectedType() {
    return rejectedType;
  }
}
