package dev.esgen.processor.functional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.esgen.processor.functional.bank.AccountId;
import dev.esgen.processor.functional.bank.AccountOpened;
import dev.esgen.processor.functional.bank.BankAccount;
import dev.esgen.processor.functional.bank.BankAccountAsyncRepository;
import dev.esgen.processor.functional.bank.BankAccountRepository;
import dev.esgen.processor.functional.bank.MoneyDeposited;
import dev.esgen.processor.functional.note.Note;
import dev.esgen.processor.functional.note.NoteAsyncRepository;
import dev.esgen.processor.functional.note.NoteEvent;
import dev.esgen.processor.functional.note.NoteRepository;
import dev.esgen.runtime.DynamoDbEventStore;
import dev.esgen.runtime.error.ValueNotFoundException;
import dev.esgen.runtime.error.VersionConflictException;
import dev.esgen.runtime.query.Page;
import dev.esgen.runtime.query.PageRequest;
import dev.esgen.runtime.repository.Versioned;
import dev.esgen.test.DynamoDbLocal;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.nio.netty.NettyNioAsyncHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;

/** A generated {@code BankAccountAsyncRepository} end to end against DynamoDB Local, beside the sync one. */
class AsyncRepositoryFunctionalTest {

  private static <T> T await(CompletableFuture<T> future) {
    return future.orTimeout(30, TimeUnit.SECONDS).join();
  }

  private static DynamoDbAsyncClient asyncClient() {
    return DynamoDbAsyncClient.builder()
        .endpointOverride(DynamoDbLocal.shared().endpoint())
        .region(Region.US_EAST_1)
        .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("x", "x")))
        .httpClientBuilder(NettyNioAsyncHttpClient.builder())
        .build();
  }

  @Test
  void theGeneratedAsyncRepositoryWritesAndLooksUpWhatTheSyncOneReads() {
    DynamoDbEventStore store = DynamoDbEventStore.create(IndexDynamo.client(), IndexDynamo.CONFIG);
    try (DynamoDbAsyncClient client = asyncClient()) {
      BankAccountAsyncRepository accounts = new BankAccountAsyncRepository(store.withAsyncClient(client));
      BankAccountRepository syncAccounts = new BankAccountRepository(store);
      AccountId id = new AccountId(UUID.randomUUID());
      String owner = "owner-" + UUID.randomUUID();
      String email = "ann-" + UUID.randomUUID() + "@example.com";

      Versioned<BankAccount> opened = await(accounts.create(new AccountOpened(id, owner, email)));
      Versioned<BankAccount> deposited = await(accounts.transact(id, account -> List.of(new MoneyDeposited(500))));

      assertEquals(2, deposited.version());
      assertEquals(deposited.state(), syncAccounts.load(id));
      assertEquals(500, syncAccounts.load(id).balanceCents());
      assertEquals(Optional.of(id), await(accounts.findByEmail(email)).map(BankAccount::id));
      assertEquals(id, await(accounts.loadByEmail(email)).id());
      assertEquals(Map.of(id, deposited.state()), await(accounts.findAll(List.of(id, new AccountId(UUID.randomUUID())))));
      // The owner index is a global secondary index: eventually consistent, though DynamoDB Local is not late.
      Page<BankAccount> byOwner = await(accounts.listByOwner(owner, PageRequest.first(10)));
      assertEquals(List.of(deposited.state()), byOwner.items());
      assertEquals(id, await(accounts.loadByOwner(owner)).id());

      ExecutionException stale = assertThrows(ExecutionException.class,
          () -> accounts.append(id, opened.version(), List.of(new MoneyDeposited(1))).get(30, TimeUnit.SECONDS));
      assertInstanceOf(VersionConflictException.class, stale.getCause());
      ExecutionException missing = assertThrows(ExecutionException.class,
          () -> accounts.loadByEmail("nobody-" + UUID.randomUUID() + "@example.com").get(30, TimeUnit.SECONDS));
      assertInstanceOf(ValueNotFoundException.class, missing.getCause());
      assertTrue(syncAccounts.findById(id).isPresent());
    }
  }

  /** Note is events-only and calves at 50 events: the async loads read the calved batch as the sync ones do. */
  @Test
  void theGeneratedAsyncRepositoryOfATipAggregateCalvesAndLoadsWhatTheSyncOneLoads() {
    DynamoDbEventStore store = DynamoDbEventStore.create(IndexDynamo.client(), IndexDynamo.CONFIG);
    try (DynamoDbAsyncClient client = asyncClient()) {
      NoteAsyncRepository notes = new NoteAsyncRepository(store.withAsyncClient(client));
      NoteRepository syncNotes = new NoteRepository(store);
      UUID id = UUID.randomUUID();

      Versioned<Note> current = await(notes.create(new NoteEvent.Written(id, "v0")));
      for (int i = 1; i <= 60; i++) {
        current = await(notes.append(current, List.of(new NoteEvent.Edited("v" + i))));
      }
      Versioned<Note> transacted = await(notes.transact(id, note -> List.of(new NoteEvent.Edited("last"))));

      assertEquals(62, transacted.version());
      assertEquals(new Note(id, "last"), await(notes.load(id)));
      assertEquals(syncNotes.load(id), await(notes.load(id)));
      try (var events = syncNotes.events(id)) {
        assertEquals(62, events.count());
      }
      ExecutionException stale = assertThrows(ExecutionException.class,
          () -> notes.append(id, 1, List.of(new NoteEvent.Edited("stale"))).get(30, TimeUnit.SECONDS));
      assertInstanceOf(VersionConflictException.class, stale.getCause());
    }
  }
}
