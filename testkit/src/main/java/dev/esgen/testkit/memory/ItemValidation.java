package dev.esgen.testkit.memory;

import dev.esgen.runtime.error.AppendRejectedException;
import dev.esgen.runtime.error.ItemTooLargeException;
import java.util.List;
import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;

/**
 * DynamoDB's own check of an updated item's size, which comes after esgen's: esgen sizes the attributes an
 * update writes, DynamoDB the whole item it leaves behind, and an update leaves attributes it does not name
 * in place (an older snapshot beside a newer one that did not fit, the journal's list of kept snapshots).
 * When that item passes 400 KB DynamoDB refuses the write, and esgen reports what DynamoDB said: in a
 * transaction as an {@link AppendRejectedException} naming the action, in a single {@code UpdateItem} as
 * the AWS SDK's own {@link DynamoDbException}. The in-memory store refuses such an append with the same.
 */
final class ItemValidation {

  /** DynamoDB Local's words for an update that would leave an item over 400 KB. */
  static final String TOO_LARGE = "Item size to update has exceeded the maximum allowed size";

  private ItemValidation() {}

  /**
   * Refuses an append whose update of the item {@code label} would leave {@code storedBytes}, when that is
   * more than DynamoDB allows.
   *
   * @param transactional whether the append is a transaction (else a single {@code UpdateItem})
   */
  static void check(String aggregateName, String aid, String label, long storedBytes, boolean transactional) {
    if (storedBytes <= ItemTooLargeException.LIMIT_BYTES) {
      return;
    }
    if (transactional) {
      throw new AppendRejectedException(aggregateName, aid, List.of(label + ": ValidationError (" + TOO_LARGE + ")"),
          null);
    }
    throw DynamoDbException.builder()
        .message(TOO_LARGE)
        .statusCode(400)
        .awsErrorDetails(AwsErrorDetails.builder()
            .errorCode("ValidationException")
            .errorMessage(TOO_LARGE)
            .serviceName("DynamoDb")
            .build())
        .build();
  }
}
