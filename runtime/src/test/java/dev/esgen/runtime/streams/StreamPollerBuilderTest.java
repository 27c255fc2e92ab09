package dev.esgen.runtime.streams;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * What the poller's builder refuses at once, before a poll could fail on it: a started poller retries every
 * failed poll, so a setting no poll can use would keep it failing for ever.
 */
class StreamPollerBuilderTest {

  private static String refused(Executable setting) {
    return assertThrows(IllegalArgumentException.class, setting).getMessage();
  }

  @Test
  void aConsumerNameMustFitTheCheckpointKey() {
    StreamPoller.Builder builder = StreamPoller.builder();
    builder.consumer("c".repeat(2048 - "checkpoint#".length()));

    assertEquals("a consumer name of 2038 bytes makes a checkpoint key of 2049 bytes, over DynamoDB's key limit"
        + " of 2048 bytes", refused(() -> builder.consumer("c".repeat(2038))));
    // Three bytes each in UTF-8.
    assertEquals("a consumer name of 2040 bytes makes a checkpoint key of 2051 bytes, over DynamoDB's key limit"
        + " of 2048 bytes", refused(() -> builder.consumer("€".repeat(680))));
  }

  @Test
  void namesWithHalfASurrogatePairAreRefusedAsTheyWouldMeetInOneKey() {
    // Both would be stored as "x?".
    assertEquals("a consumer name must be well-formed Unicode; char 1 is half of a surrogate pair without its"
        + " other half, which has no UTF-8 form", refused(() -> StreamPoller.builder().consumer("x\uD800")));
    refused(() -> StreamPoller.builder().consumer("x\uDC00"));
    refused(() -> StreamPoller.builder().leaseOwner("host\uDC00"));
    StreamPoller.builder().consumer("x\uD83D\uDE00").leaseOwner("host-\uD83D\uDE00");
  }

  @Test
  void tableNamesDynamoDbWouldRefuseAreRefusedAsStoreConfigRefusesThem() {
    String rule = " is no DynamoDB table name: it must have 3 to 255 characters, each a letter, a digit, '_', '-'"
        + " or '.' (or be the table's ARN)";
    assertEquals("checkpointTable 'ab'" + rule, refused(() -> StreamPoller.builder().checkpointTable("ab")));
    refused(() -> StreamPoller.builder().checkpointTable(""));
    refused(() -> StreamPoller.builder().checkpointTable("esgen feed"));
    refused(() -> StreamPoller.builder().checkpointTable("f".repeat(256)));
    assertEquals("tableName 'my table'" + rule, refused(() -> StreamPoller.builder().tableName("my table")));
    assertEquals("tableName 'x'" + rule, refused(() -> CheckpointTable.definition("x")));
    StreamPoller.builder().checkpointTable("esgen-feed.v1_2")
        .tableName("arn:aws:dynamodb:eu-west-1:123456789012:table/journal");
  }

  /** DynamoDB Streams refuses these at every poll, on the poller's thread: the builder refuses them at once. */
  @Test
  void streamArnsOfALengthDynamoDbStreamsRefusesAreRefused() {
    String rule = " a stream ARN has 37 to 1024 characters (arn:aws:dynamodb:{region}:{account}:table/{table}"
        + "/stream/{label})";
    assertEquals("streamArn '' is no stream ARN:" + rule, refused(() -> StreamPoller.builder().streamArn("")));
    assertEquals("streamArn 'journal' is no stream ARN:" + rule,
        refused(() -> StreamPoller.builder().streamArn("journal")));
    assertEquals("streamArn of 1025 characters is no stream ARN:" + rule,
        refused(() -> StreamPoller.builder().streamArn("a".repeat(1025))));
    StreamPoller.builder().streamArn(SimulatedStream.ARN);
    StreamPoller.builder().streamArn("a".repeat(37)).streamArn("a".repeat(1024));
  }

  @Test
  void durationsAreBoundedSoThatTheClocksArithmeticCannotOverflow() {
    StreamPoller.Builder builder = StreamPoller.builder();

    assertEquals("lease must be at most 365 days, was PT2562047788015215H30M7S",
        refused(() -> builder.lease(Duration.ofSeconds(Long.MAX_VALUE))));
    assertEquals("a lease must last longer than 0, was PT0S", refused(() -> builder.lease(Duration.ZERO)));
    refused(() -> builder.shardRefreshInterval(Duration.ofDays(366)));
    refused(() -> builder.pollInterval(Duration.ofDays(366)));
    refused(() -> builder.retryBackoff(Duration.ofSeconds(1), Duration.ofDays(366)));
    assertEquals("pollInterval must not be negative, was PT-1S", refused(() -> builder.pollInterval(Duration.ofSeconds(-1))));
    builder.lease(Duration.ofDays(365)).shardRefreshInterval(Duration.ofDays(365)).retryBackoff(Duration.ZERO, Duration.ofDays(365));
  }
}
