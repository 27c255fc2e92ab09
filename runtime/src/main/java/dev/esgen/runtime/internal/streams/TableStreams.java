package dev.esgen.runtime.internal.streams;

import dev.esgen.runtime.error.MissingTableException;
import dev.esgen.runtime.streams.StreamNotEnabledException;
import java.util.List;
import java.util.Optional;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;

/**
 * Finds a table's current stream.
 *
 * <pre>{@code
 * String arn = TableStreams.latestStreamArn(client, "streams");
 * }</pre>
 */
public final class TableStreams {

  private TableStreams() {}

  /**
   * The ARN of {@code table}'s enabled stream.
   *
   * @throws StreamNotEnabledException when the table has no enabled stream
   * @throws MissingTableException when the table does not exist
   */
  public static String latestStreamArn(DynamoDbClient client, String table) {
    TableDescription description;
    try {
      description = client.describeTable(b -> b.tableName(table)).table();
    } catch (ResourceNotFoundException e) {
      throw new MissingTableException(List.of(table), e);
    }
    return enabledStreamArn(description).orElseThrow(() -> new StreamNotEnabledException(table));
  }

  /**
   * The ARN of {@code table}'s enabled stream; empty when the table has none, or does not exist.
   *
   * @throws software.amazon.awssdk.core.exception.SdkException when DescribeTable fails otherwise
   */
  public static Optional<String> currentStreamArn(DynamoDbClient client, String table) {
    try {
      return enabledStreamArn(client.describeTable(b -> b.tableName(table)).table());
    } catch (ResourceNotFoundException e) {
      return Optional.empty();
    }
  }

  /** A disabled stream stays the table's LatestStreamArn until another is enabled: the specification tells. */
  private static Optional<String> enabledStreamArn(TableDescription description) {
    boolean enabled = description.streamSpecification() != null
        && Boolean.TRUE.equals(description.streamSpecification().streamEnabled());
    return enabled ? Optional.ofNullable(description.latestStreamArn()) : Optional.empty();
  }
}
