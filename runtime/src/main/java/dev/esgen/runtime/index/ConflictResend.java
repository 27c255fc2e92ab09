package dev.esgen.runtime.index;

import dev.esgen.runtime.error.MissingTableException;
import dev.esgen.runtime.storage.CancellationReasons;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Function;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;

/**
 * Sends an append's {@code TransactWriteItems}, and sends it again when it touches {@code @Unique}
 * reservation items and was cancelled only because it lost a transaction race. Both layouts write their
 * reservations this way.
 */
public final class ConflictResend {

  /**
   * How often, in all, an append that takes or gives up unique values is sent when it only lost a
   * transaction race.
   */
  public static final int CONFLICT_ATTEMPTS = 4;

  private ConflictResend() {}

  /**
   * Sends {@code items} as one transaction.
   *
   * @param changesReservations whether the append takes or gives up a unique value, so that a reservation
   *     item can be contended and a conflict is worth resending
   * @param cancelled the error for a cancellation that is not resent
   * @param tables the tables to name when one of them does not exist
   */
  public static void send(DynamoDbClient client, List<TransactWriteItem> items, boolean changesReservations,
      Function<TransactionCanceledException, ? extends RuntimeException> cancelled, List<String> tables) {
    for (int attempt = 1; ; attempt++) {
      // One token per send: the SDK's own retries of this request reuse it and so cannot apply it twice,
      // while a resend after a cancellation, which applied nothing, is a new request with a new token.
      String token = UUID.randomUUID().toString();
      try {
        client.transactWriteItems(b -> b.transactItems(items).clientRequestToken(token));
        return;
      } catch (TransactionCanceledException e) {
        // Two appends racing for the same reservation item, one taking a value and one giving it up or
        // both taking it, can both be cancelled with TransactionConflict; sending again lets one win and
        // the other then succeed or see the reservation as a duplicate.
        if (changesReservations && attempt < CONFLICT_ATTEMPTS && CancellationReasons.onlyConflicts(e)) {
          pauseAfterConflict(attempt);
          continue;
        }
        throw cancelled.apply(e);
      } catch (ResourceNotFoundException e) {
        throw new MissingTableException(tables, e);
      }
    }
  }

  private static void pauseAfterConflict(int attempt) {
    try {
      Thread.sleep(ThreadLocalRandom.current().nextLong(5, 25L * attempt));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while retrying a conflicting append", e);
    }
  }
}
