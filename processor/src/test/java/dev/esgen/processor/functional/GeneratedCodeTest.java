package dev.esgen.processor.functional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.esgen.annotations.Normalization;
import dev.esgen.processor.functional.bank.AccountClosed;
import dev.esgen.processor.functional.bank.AccountEvent;
import dev.esgen.processor.functional.bank.AccountId;
import dev.esgen.processor.functional.bank.AccountOpened;
import dev.esgen.processor.functional.bank.BankAccount;
import dev.esgen.processor.functional.bank.BankAccountRepository;
import dev.esgen.processor.functional.bank.MoneyDeposited;
import dev.esgen.processor.functional.library.Book;
import dev.esgen.processor.functional.library.BookAdded;
import dev.esgen.processor.functional.library.BookEvent;
import dev.esgen.processor.functional.library.BookRepository;
import dev.esgen.processor.functional.library.Genre;
import dev.esgen.processor.functional.library.LoanEvent;
import dev.esgen.processor.functional.note.Note;
import dev.esgen.processor.functional.note.NoteEvent;
import dev.esgen.processor.functional.note.NoteRepository;
import dev.esgen.processor.functional.ticket.Ticket;
import dev.esgen.processor.functional.ticket.TicketEvent;
import dev.esgen.processor.functional.ticket.TicketRepository;
import dev.esgen.runtime.DynamoDbEventStore;
import dev.esgen.runtime.EventStore;
import dev.esgen.runtime.aggregate.AggregateDefinition;
import dev.esgen.runtime.aggregate.LayoutKind;
import dev.esgen.runtime.aggregate.SnapshotPolicy;
import dev.esgen.runtime.aggregate.TipPolicy;
import dev.esgen.runtime.codec.EsgenJson;
import dev.esgen.runtime.config.StoreConfig;
import dev.esgen.runtime.error.UnexpectedEventException;
import dev.esgen.runtime.index.IndexColumn;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * Runs the code the processor generated, during this module's own test compilation, for the domains in
 * this package: a record aggregate ({@code bank}), a final-class aggregate with two sealed levels
 * ({@code library}) and an aggregate with nested events and a root handler ({@code ticket}).
 */
class GeneratedCodeTest {

  private static final ObjectMapper MAPPER = EsgenJson.newObjectMapper();
  private static final AccountId ACCOUNT = new AccountId(UUID.fromString("5f0c6b0e-8d3a-4c55-9b1e-2f4a8f1d2c33"));

  @Nested
  class EventCodecs {

    @Test
    void everyBankEventSurvivesARoundTripUnderItsStoredName() throws IOException {
      BankAccountRepository.EventCodec codec = new BankAccountRepository.EventCodec(MAPPER);
      List<AccountEvent> events =
          List.of(new AccountOpened(ACCOUNT, "Ann", "ann@example.com"), new MoneyDeposited(500), new AccountClosed());
      List<String> names = List.of("account-opened", "MoneyDeposited", "AccountClosed");
      for (int i = 0; i < events.size(); i++) {
        AccountEvent event = events.get(i);
        assertEquals(names.get(i), codec.typeName(event));
        assertEquals(event, codec.decode(codec.typeName(event), codec.encode(event)));
      }
      assertEquals(names, BankAccountRepository.EventCodec.EVENT_TYPES);
    }

    @Test
    void storedBodiesCarryNoClassNames() throws IOException {
      String body = new String(new BankAccountRepository.EventCodec(MAPPER).encode(new MoneyDeposited(500)), StandardCharsets.UTF_8);
      assertEquals("{\"cents\":500}", body);
    }

    @Test
    void classAndNestedEventsSurviveARoundTrip() throws IOException {
      BookRepository.EventCodec codec = new BookRepository.EventCodec(MAPPER);
      BookEvent added = codec.decode("book-added", codec.encode(new BookAdded("978-0", "Dune", Genre.FICTION)));
      assertEquals("Dune", ((BookAdded) added).getTitle());
      assertEquals(Genre.FICTION, ((BookAdded) added).getGenre());
      BookEvent lent = new LoanEvent.Lent("Bob");
      assertEquals("Lent", codec.typeName(lent));
      assertEquals(lent, codec.decode("Lent", codec.encode(lent)));
      assertEquals(new LoanEvent.Returned(), codec.decode("Returned", codec.encode(new LoanEvent.Returned())));
    }

    @Test
    void anUnknownStoredNameIsRejectedWithTheKnownNames() {
      IllegalArgumentException e =
          assertThrows(
              IllegalArgumentException.class,
              () -> new BankAccountRepository.EventCodec(MAPPER).decode("account-frozen", new byte[] {'{', '}'}));
      assertTrue(e.getMessage().contains("bank-account"), e.getMessage());
      assertTrue(e.getMessage().contains("account-frozen"), e.getMessage());
      assertTrue(e.getMessage().contains("[account-opened, MoneyDeposited, AccountClosed]"), e.getMessage());
    }

    @Test
    void snapshotsOfRecordAndClassAggregatesSurviveARoundTrip() throws IOException {
      BankAccount account = new BankAccount(ACCOUNT, "Ann", "ann@example.com", 700, true);
      BankAccountRepository.SnapshotCodec bank = new BankAccountRepository.SnapshotCodec(MAPPER);
      assertEquals(account, bank.decode(bank.encode(account)));

      BookRepository.Replay replay = new BookRepository.Replay();
      Book book = replay.apply(replay.create(new BookAdded("978-0", "Dune", Genre.FICTION)), new LoanEvent.Lent("Bob"));
      BookRepository.SnapshotCodec books = new BookRepository.SnapshotCodec(MAPPER);
      Book back = books.decode(books.encode(book));
      assertEquals("978-0", back.isbn());
      assertEquals("Bob", back.getBorrower());
      assertEquals(1, back.getLoans());
    }
  }

  @Nested
  class Replays {

    @Test
    void createThenApplyFoldsTheStream() {
      BankAccountRepository.Replay replay = new BankAccountRepository.Replay();
      BankAccount account = replay.create(new AccountOpened(ACCOUNT, "Ann", "ann@example.com"));
      account = replay.apply(account, new MoneyDeposited(500));
      account = replay.apply(account, new MoneyDeposited(200));
      account = replay.apply(account, new AccountClosed());
      assertEquals(new BankAccount(ACCOUNT, "Ann", "ann@example.com", 700, true), account);
    }

    @Test
    void aStreamThatDoesNotStartWithTheCreatingEventIsRejected() {
      UnexpectedEventException e =
          assertThrows(UnexpectedEventException.class, () -> new BankAccountRepository.Replay().create(new MoneyDeposited(5)));
      assertEquals("bank-account", e.aggregateName());
      assertEquals("MoneyDeposited", e.eventTypeName());
      assertEquals("only AccountOpened can start a bank-account stream", e.reason());
    }

    @Test
    void aCreatingEventWithoutApplyHandlerCannotContinueAStream() {
      BankAccountRepository.Replay replay = new BankAccountRepository.Replay();
      BankAccount account = replay.create(new AccountOpened(ACCOUNT, "Ann", "ann@example.com"));
      UnexpectedEventException e =
          assertThrows(
              UnexpectedEventException.class,
              () -> replay.apply(account, new AccountOpened(ACCOUNT, "Ann", "ann@example.com")));
      assertEquals("account-opened", e.eventTypeName());
      assertTrue(e.getMessage().contains("AccountOpened can only start a bank-account stream"), e.getMessage());
    }

    @Test
    void aHandlerOfASealedIntermediateReceivesAllItsEvents() {
      BookRepository.Replay replay = new BookRepository.Replay();
      Book book = replay.create(new BookAdded("978-0", "Dune", Genre.SCIENCE));
      book = replay.apply(book, new LoanEvent.Lent("Bob"));
      assertEquals("Bob", book.getBorrower());
      book = replay.apply(book, new LoanEvent.Returned());
      assertEquals(null, book.getBorrower());
      assertEquals(1, book.getLoans());
    }

    @Test
    void aRootHandlerReceivesEveryEventIncludingTheCreatingOne() {
      TicketRepository.Replay replay = new TicketRepository.Replay();
      UUID id = UUID.randomUUID();
      Ticket ticket = replay.create(new TicketEvent.Opened(id, "Printer on fire"));
      ticket = replay.apply(ticket, new TicketEvent.Commented("again"));
      ticket = replay.apply(ticket, new TicketEvent.Opened(id, "ignored"));
      ticket = replay.apply(ticket, new TicketEvent.Resolved());
      assertEquals(new Ticket(id, "Printer on fire", 1, true), ticket);
      UnexpectedEventException e =
          assertThrows(UnexpectedEventException.class, () -> replay.create(new TicketEvent.Resolved()));
      assertEquals("only TicketEvent.Opened can start a ticket stream", e.reason());
    }
  }

  @Nested
  class Keys {

    @Test
    void aRecordWrappedUuidIdRoundTrips() {
      BankAccountRepository.Keys keys = new BankAccountRepository.Keys();
      assertEquals(ACCOUNT, keys.idOf(new BankAccount(ACCOUNT, "Ann", null, 0, false)));
      assertEquals("5f0c6b0e-8d3a-4c55-9b1e-2f4a8f1d2c33", keys.idString(ACCOUNT));
      assertEquals(ACCOUNT, keys.parseId(keys.idString(ACCOUNT)));
    }

    @Test
    void aStringIdReadThroughAGetterRoundTrips() {
      BookRepository.Keys keys = new BookRepository.Keys();
      Book book = new BookRepository.Replay().create(new BookAdded("978-0-441", "Dune", Genre.FICTION));
      assertEquals("978-0-441", keys.idOf(book));
      assertEquals("978-0-441", keys.idString("978-0-441"));
      assertEquals("978-0-441", keys.parseId("978-0-441"));
    }

    @Test
    void aUuidIdRoundTrips() {
      TicketRepository.Keys keys = new TicketRepository.Keys();
      UUID id = UUID.randomUUID();
      assertEquals(id, keys.idOf(new Ticket(id, "t", 0, false)));
      assertEquals(id.toString(), keys.idString(id));
      assertEquals(id, keys.parseId(id.toString()));
    }

    @Test
    void aNullIdIsReportedWithTheAggregateName() {
      NullPointerException state =
          assertThrows(NullPointerException.class, () -> new BankAccountRepository.Keys().idOf(new BankAccount(null, "Ann", null, 0, false)));
      assertTrue(state.getMessage().startsWith("bank-account"), state.getMessage());
      NullPointerException wrapped =
          assertThrows(NullPointerException.class, () -> new BankAccountRepository.Keys().idString(new AccountId(null)));
      assertTrue(wrapped.getMessage().startsWith("bank-account"), wrapped.getMessage());
      NullPointerException plain = assertThrows(NullPointerException.class, () -> new TicketRepository.Keys().idString(null));
      assertTrue(plain.getMessage().startsWith("ticket"), plain.getMessage());
    }
  }

  @Nested
  class IndexColumns {

    @Test
    void columnsAreListedInDeclarationOrderWithTheirUniqueness() {
      assertEquals(
          List.of(IndexColumn.indexed("owner"), IndexColumn.unique("email", Normalization.EXACT)),
          new BankAccountRepository.IndexColumns().columns());
    }

    @Test
    void valuesAreStringFormsAndNullValuesAreOmitted() {
      assertEquals(
          Map.of("owner", "Ann", "email", "ann@example.com"),
          new BankAccountRepository.IndexColumns().values(new BankAccount(ACCOUNT, "Ann", "ann@example.com", 0, false)));
      assertEquals(
          Map.of("owner", "Ann"), new BankAccountRepository.IndexColumns().values(new BankAccount(ACCOUNT, "Ann", null, 0, false)));
    }

    @Test
    void enumsWrappedRecordsAndPrimitivesOfAClassAggregate() {
      BookRepository.Replay replay = new BookRepository.Replay();
      Book book = replay.create(new BookAdded("978-0", "Dune", Genre.SCIENCE));
      Map<String, String> expected = new LinkedHashMap<>();
      expected.put("title", "Dune");
      expected.put("genre", "SCIENCE");
      expected.put("loans", "0");
      assertEquals(expected, new BookRepository.IndexColumns().values(book));
      assertEquals(List.copyOf(expected.keySet()), List.copyOf(new BookRepository.IndexColumns().values(book).keySet()));

      book = replay.apply(replay.apply(book, new LoanEvent.Lent("Bob")), new LoanEvent.Returned());
      Map<String, String> values = new BookRepository.IndexColumns().values(book);
      assertEquals("A-1", values.get("shelf"));
      assertFalse(values.containsKey("borrower"));
    }

    @Test
    void anAggregateWithoutColumnsHasNone() {
      var columns = TicketRepository.definition(MAPPER).indexColumns();
      assertTrue(columns.columns().isEmpty());
      assertTrue(columns.values(new Ticket(UUID.randomUUID(), "t", 0, false)).isEmpty());
      // Nothing to read, so no class of its own: the repository is the only file generated for Ticket.
      assertTrue(Arrays.stream(TicketRepository.class.getDeclaredClasses())
          .noneMatch(nested -> nested.getSimpleName().equals("IndexColumns")));
    }
  }

  @Nested
  class Definitions {

    /** A store on a client that points nowhere: these tests construct repositories and never read or write. */
    private final EventStore store = DynamoDbEventStore.create(
        DynamoDbClient.builder()
            .endpointOverride(URI.create("http://127.0.0.1:9"))
            .region(Region.US_EAST_1)
            .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("x", "x")))
            .httpClient(UrlConnectionHttpClient.create())
            .build(),
        StoreConfig.defaults().withObjectMapper(MAPPER));

    @Test
    void theOptionsOfAggregateAreCarriedOver() {
      AggregateDefinition<BankAccount, AccountId, AccountEvent> definition = new BankAccountRepository(store).definition();
      assertEquals("bank-account", definition.name());
      assertEquals(BankAccount.class, definition.aggregateType());
      assertEquals(8, definition.shards());
      assertEquals(new SnapshotPolicy(50, 2, Optional.of(Duration.ofDays(30))), definition.snapshotPolicy());
      assertInstanceOf(BankAccountRepository.Keys.class, definition.keys());
      assertInstanceOf(BankAccountRepository.EventCodec.class, definition.eventCodec());
      assertInstanceOf(BankAccountRepository.SnapshotCodec.class, definition.snapshotCodec());
      assertInstanceOf(BankAccountRepository.Replay.class, definition.replay());
      assertInstanceOf(BankAccountRepository.IndexColumns.class, definition.indexColumns());
    }

    @Test
    void defaultsApplyWhenOptionsAreLeftOut() {
      AggregateDefinition<Book, String, BookEvent> book = BookRepository.definition(MAPPER);
      assertEquals(4, book.shards());
      assertEquals(SnapshotPolicy.every(100), book.snapshotPolicy());
      AggregateDefinition<Ticket, UUID, TicketEvent> ticket = new TicketRepository(store).definition();
      assertEquals(1, ticket.shards());
      assertEquals(SnapshotPolicy.every(10).keeping(1), ticket.snapshotPolicy());
      assertEquals(LayoutKind.JOURNAL, ticket.layout());
    }

    @Test
    void theTipLayoutAndItsOptionsAreCarriedOver() {
      AggregateDefinition<Note, UUID, NoteEvent> note = new NoteRepository(store).definition();
      assertEquals(LayoutKind.TIP, note.layout());
      assertEquals(new TipPolicy(8192, 50, false), note.tipPolicy());
    }
  }
}
