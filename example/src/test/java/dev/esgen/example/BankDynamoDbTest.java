package dev.esgen.example;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.esgen.example.account.AccountId;
import dev.esgen.example.account.AccountRuleException;
import dev.esgen.example.account.BankAccount;
import dev.esgen.example.account.BankAccountRepository;
import dev.esgen.example.transfer.Transfer;
import dev.esgen.example.transfer.TransferRepository;
import dev.esgen.example.transfer.TransferService;
import dev.esgen.runtime.DynamoDbEventStore;
import dev.esgen.runtime.EventStore;
import dev.esgen.runtime.config.StoreConfig;
import dev.esgen.runtime.error.AggregateNotFoundException;
import dev.esgen.runtime.error.DuplicateValueException;
import dev.esgen.runtime.error.ValueNotFoundException;
import dev.esgen.runtime.provision.TableProvisioner;
import dev.esgen.runtime.query.Page;
import dev.esgen.runtime.query.PageRequest;
import dev.esgen.runtime.repository.Versioned;
import dev.esgen.test.DynamoDbLocalExtension;
import dev.esgen.test.TablePrefix;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * The example's generated repositories and its service, against DynamoDB Local, in tables of this
 * class's own (esgen-test's extension gives the class a client and a table-name prefix).
 */
@ExtendWith(DynamoDbLocalExtension.class)
class BankDynamoDbTest {

  private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-01-02T03:04:05Z"), ZoneOffset.UTC);

  private static StoreConfig config;
  private static BankAccountRepository accounts;
  private static TransferRepository transfers;
  private static TransferService service;

  @BeforeAll
  static void provision(DynamoDbClient client, TablePrefix tables) {
    config = StoreConfig.defaults()
        .withJournalTable(tables.name("journal"))
        .withSnapshotTable(tables.name("snapshot"))
        .withTipTable(tables.name("streams"))
        .withClock(CLOCK);
    new TableProvisioner(client, config).createTablesIfMissing(
        BankAccountRepository.definition(config.objectMapper()), TransferRepository.definition(config.objectMapper()));
    EventStore store = DynamoDbEventStore.create(client, config);
    accounts = new BankAccountRepository(store);
    transfers = new TransferRepository(store);
    service = new TransferService(accounts, transfers, CLOCK);
  }

  private AccountId open(String owner, long cents) {
    AccountId id = AccountId.random();
    // Addresses are unique: each test's accounts get their own.
    accounts.create(BankAccount.opening(id, owner, owner.toLowerCase() + "-" + id.value() + "@example.com",
        CLOCK.instant()));
    if (cents > 0) {
      accounts.transact(id, a -> a.deposit(cents, "initial"));
    }
    return id;
  }

  @Test
  void transferMovesMoneyAndCompletes() {
    AccountId ann = open("Ann", 100_00);
    AccountId bob = open("Bob", 0);

    Transfer done = service.transfer(ann, bob, 40_00);

    assertEquals(Transfer.Status.COMPLETED, done.status());
    assertEquals(Transfer.Status.COMPLETED, transfers.load(done.id()).status());
    assertEquals(60_00, accounts.load(ann).balanceCents());
    assertEquals(40_00, accounts.load(bob).balanceCents());
  }

  @Test
  void aDepositSentTwiceWithOneCommandIdIsAppliedOnce(DynamoDbClient client) {
    AccountId ann = open("Ann", 0);
    String command = "deposit-" + ann.value();

    accounts.transact(ann, command, a -> a.deposit(25_00, "paycheck"));
    accounts.transact(ann, command, a -> a.deposit(25_00, "paycheck"));
    // A new repository on a new store, as after a restart, recognises the command as well.
    new BankAccountRepository(DynamoDbEventStore.create(client, config))
        .transact(ann, command, a -> a.deposit(25_00, "paycheck"));

    assertEquals(25_00, accounts.load(ann).balanceCents());
    assertEquals(2, accounts.loadVersioned(ann).version());
  }

  @Test
  void refusedTransferFailsAndMovesNothing() {
    AccountId ann = open("Ann", 10_00);
    AccountId bob = open("Bob", 0);

    Transfer failed = service.transfer(ann, bob, 11_00);

    assertEquals(Transfer.Status.FAILED, failed.status());
    assertEquals(10_00, accounts.load(ann).balanceCents());
    assertEquals(0, accounts.load(bob).balanceCents());
  }

  @Test
  void transferToAnUnknownAccountStartsNothing() {
    AccountId ann = open("Ann", 10_00);
    AccountId nobody = AccountId.random();

    AggregateNotFoundException e =
        assertThrows(AggregateNotFoundException.class, () -> service.transfer(ann, nobody, 1_00));
    assertTrue(e.getMessage().contains(nobody.value().toString()), e.getMessage());
    assertEquals(10_00, accounts.load(ann).balanceCents());
  }

  @Test
  void closingAppendsPayoutAndClosureTogether() {
    AccountId ann = open("Ann", 25_00);
    long before = accounts.loadVersioned(ann).seqNr();

    Versioned<BankAccount> closed = accounts.transact(ann, a -> a.close("moving"));

    assertTrue(closed.state().closed());
    assertEquals(0, closed.state().balanceCents());
    assertEquals(before + 2, closed.seqNr(), "payout and closure are two events");
    assertThrows(AccountRuleException.class, () -> accounts.transact(ann, a -> a.deposit(1, "late")));
    assertFalse(accounts.findById(AccountId.random()).isPresent());
  }

  @Test
  void replayAcrossSnapshotsGivesTheSameBalance() {
    AccountId ann = open("Ann", 0);
    long expected = 0;
    for (int i = 1; i <= 45; i++) { // BankAccount snapshots every 20 events
      int cents = i;
      accounts.transact(ann, a -> a.deposit(cents, "deposit " + cents));
      expected += i;
    }
    Versioned<BankAccount> loaded = accounts.loadVersioned(ann);
    assertEquals(expected, loaded.state().balanceCents());
    assertEquals(46, loaded.seqNr());
  }

  @Test
  void theExampleProgramRunsToTheEndAndShowsTheStoredEventsAndTheirCost(DynamoDbClient client, TablePrefix tables)
      throws Exception {
    ByteArrayOutputStream output = new ByteArrayOutputStream();

    // In tables of this class's prefix, which the extension deletes after the class.
    ExampleApp.run(client, tables::name, new PrintStream(output, true, StandardCharsets.UTF_8));

    String printed = output.toString(StandardCharsets.UTF_8);
    assertTrue(printed.endsWith("Done.\n"), printed);
    String history = printed.substring(printed.indexOf("Ann's account, as stored:"));
    assertTrue(history.matches("(?s)Ann's account, as stored:\n +1 +account-opened .*\n +6 +account-closed .*"), history);
    assertTrue(printed.contains("bonus sent again, not applied twice"), printed);
    assertTrue(printed.contains("bank-account transact"), printed);
    assertTrue(printed.matches("(?s).*\nread model: \\S+ owner=Ann balance=0 cents closed=true \\(6 events\\)\n.*"),
        printed);
  }

  @Test
  void accountsAreFoundByEmailIgnoringCaseAndListedByOwner() {
    String owner = "Owner " + AccountId.random().value();
    AccountId first = open(owner, 0);
    AccountId second = open(owner, 0);
    String email = accounts.load(first).email();

    assertEquals(first, accounts.loadByEmail(email.toUpperCase()).id());
    assertEquals(Set.of(first, second), listAllByOwner(owner));
    assertThrows(ValueNotFoundException.class, () -> accounts.loadByEmail("nobody@example.com"));
  }

  @Test
  void anEmailAnotherAccountHoldsIsRefusedAndAFreedOneCanBeTaken() {
    AccountId ann = open("Ann", 0);
    AccountId bob = open("Bob", 0);
    String annEmail = accounts.load(ann).email();

    DuplicateValueException taken = assertThrows(DuplicateValueException.class,
        () -> accounts.transact(bob, b -> b.changeEmail(annEmail.toUpperCase())));
    assertEquals("email", taken.column());
    assertEquals(annEmail.toUpperCase(), taken.value());
    assertEquals(1, accounts.loadVersioned(bob).version());

    String annNew = "ann-new-" + ann.value() + "@example.com";
    accounts.transact(ann, a -> a.changeEmail(annNew));
    accounts.transact(bob, b -> b.changeEmail(annEmail));
    assertEquals(bob, accounts.loadByEmail(annEmail).id());
    assertEquals(ann, accounts.loadByEmail(annNew).id());
  }

  private Set<AccountId> listAllByOwner(String owner) {
    Set<AccountId> ids = new HashSet<>();
    PageRequest request = PageRequest.first(1);
    while (true) {
      Page<BankAccount> page = accounts.listByOwner(owner, request);
      page.items().forEach(a -> ids.add(a.id()));
      if (page.nextCursor().isEmpty()) {
        return ids;
      }
      request = PageRequest.after(page.nextCursor().get(), 1);
    }
  }
}
