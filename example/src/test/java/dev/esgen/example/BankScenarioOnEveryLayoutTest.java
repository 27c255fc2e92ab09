package dev.esgen.example;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.esgen.example.account.AccountId;
import dev.esgen.example.account.BankAccount;
import dev.esgen.example.account.BankAccountRepository;
import dev.esgen.example.transfer.Transfer;
import dev.esgen.example.transfer.TransferRepository;
import dev.esgen.example.transfer.TransferService;
import dev.esgen.runtime.DynamoDbEventStore;
import dev.esgen.runtime.EventStore;
import dev.esgen.runtime.aggregate.LayoutKind;
import dev.esgen.runtime.aggregate.TipPolicy;
import dev.esgen.runtime.config.StoreConfig;
import dev.esgen.runtime.error.DuplicateValueException;
import dev.esgen.runtime.provision.TableProvisioner;
import dev.esgen.runtime.query.Page;
import dev.esgen.runtime.query.PageRequest;
import dev.esgen.test.DynamoDbLocalExtension;
import dev.esgen.test.TablePrefix;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * One bank scenario, with lookups and uniqueness, run once per storage layout: the generated
 * repositories are built on the generated definitions with only the layout switched
 * ({@code withDefinition(store, definition(mapper).withLayout(...))}), so the scenario code is the same
 * line for line.
 */
@ExtendWith(DynamoDbLocalExtension.class)
class BankScenarioOnEveryLayoutTest {

  private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-01-02T03:04:05Z"), ZoneOffset.UTC);

  private static DynamoDbClient client;
  private static StoreConfig config;
  private static EventStore store;

  @BeforeAll
  static void provision(DynamoDbClient localClient, TablePrefix tables) {
    client = localClient;
    config = StoreConfig.defaults()
        .withJournalTable(tables.name("journal"))
        .withSnapshotTable(tables.name("snapshot"))
        .withTipTable(tables.name("streams"))
        .withClock(CLOCK);
    new TableProvisioner(client, config).createTablesIfMissing(
        BankAccountRepository.definition(config.objectMapper()), TransferRepository.definition(config.objectMapper()));
    store = DynamoDbEventStore.create(client, config);
  }

  @ParameterizedTest
  @EnumSource(LayoutKind.class)
  void openDepositTransferFindListAndKeepEmailsUnique(LayoutKind layout) {
    var accounts = BankAccountRepository.withDefinition(store,
        BankAccountRepository.definition(config.objectMapper()).withLayout(layout, TipPolicy.defaults()));
    var transfers = TransferRepository.withDefinition(store,
        TransferRepository.definition(config.objectMapper()).withLayout(layout, TipPolicy.defaults()));
    var service = new TransferService(accounts, transfers, CLOCK);
    String run = AccountId.random().value().toString();
    String owner = "Ann " + run;

    // open accounts
    AccountId ann = AccountId.random();
    AccountId annSavings = AccountId.random();
    AccountId bob = AccountId.random();
    String annEmail = "ann-" + run + "@example.com";
    accounts.create(BankAccount.opening(ann, owner, annEmail, CLOCK.instant()));
    accounts.create(BankAccount.opening(annSavings, owner, "ann-savings-" + run + "@example.com", CLOCK.instant()));
    accounts.create(BankAccount.opening(bob, "Bob " + run, "bob-" + run + "@example.com", CLOCK.instant()));
    assertEquals(layout == LayoutKind.TIP, hasTip(ann), "the account is stored in the layout under test");

    // deposits and transfers
    accounts.transact(ann, a -> a.deposit(100_00, "salary"));
    Transfer done = service.transfer(ann, bob, 40_00);
    assertEquals(Transfer.Status.COMPLETED, transfers.load(done.id()).status());
    assertEquals(Transfer.Status.FAILED, service.transfer(ann, bob, 1_000_00).status());
    assertEquals(60_00, accounts.load(ann).balanceCents());
    assertEquals(40_00, accounts.load(bob).balanceCents());

    // find by e-mail (ignoring case), list by owner, find many at once
    assertEquals(ann, accounts.loadByEmail(annEmail.toUpperCase()).id());
    assertEquals(Optional.empty(), accounts.findByEmail("nobody-" + run + "@example.com"));
    assertEquals(Set.of(ann, annSavings), listByOwner(accounts, owner));
    AccountId missing = AccountId.random();
    assertEquals(List.of(bob, ann), List.copyOf(accounts.findAll(List.of(bob, missing, ann)).keySet()));
    assertTrue(listAll(accounts).containsAll(Set.of(ann, annSavings, bob)));

    // a duplicate e-mail is refused, on creation and on change, and nothing is written
    AccountId copycat = AccountId.random();
    DuplicateValueException onCreate = assertThrows(DuplicateValueException.class,
        () -> accounts.create(BankAccount.opening(copycat, owner, annEmail, CLOCK.instant())));
    assertEquals("bank-account", onCreate.aggregateName());
    assertEquals("email", onCreate.column());
    assertEquals(Optional.empty(), accounts.findById(copycat));
    assertEquals(Set.of(ann, annSavings), listByOwner(accounts, owner));
    long bobVersion = accounts.loadVersioned(bob).version();
    DuplicateValueException onChange = assertThrows(DuplicateValueException.class,
        () -> accounts.transact(bob, b -> b.changeEmail(annEmail.toUpperCase())));
    assertEquals(annEmail.toUpperCase(), onChange.value());
    assertEquals(bobVersion, accounts.loadVersioned(bob).version());

    // after an e-mail change the old address is free for another account
    String annNew = "ann-new-" + run + "@example.com";
    accounts.transact(ann, a -> a.changeEmail(annNew));
    accounts.transact(bob, b -> b.changeEmail(annEmail));
    assertEquals(bob, accounts.loadByEmail(annEmail).id());
    assertEquals(ann, accounts.loadByEmail(annNew).id());
  }

  private static Set<AccountId> listByOwner(BankAccountRepository accounts, String owner) {
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

  private static Set<AccountId> listAll(BankAccountRepository accounts) {
    Set<AccountId> ids = new HashSet<>();
    PageRequest request = PageRequest.first(100);
    while (true) {
      Page<BankAccount> page = accounts.listAll(request);
      page.items().forEach(a -> ids.add(a.id()));
      if (page.nextCursor().isEmpty()) {
        return ids;
      }
      request = PageRequest.after(page.nextCursor().get(), 100);
    }
  }

  /**
   * Whether the account has a tip item, read with the keys docs/schema.md documents for the tip layout
   * ({@code p} = {@code {aggregate-name}#{aid}}, {@code i} = {@code Long.MAX_VALUE}), not with the runtime's
   * {@code internal} classes, which are no API.
   */
  private static boolean hasTip(AccountId id) {
    return client.getItem(b -> b
        .tableName(config.tipTable())
        .key(Map.of(
            "p", AttributeValue.fromS("bank-account#" + id.value()),
            "i", AttributeValue.fromN(Long.toString(Long.MAX_VALUE))))
        .consistentRead(true)).hasItem();
  }
}
