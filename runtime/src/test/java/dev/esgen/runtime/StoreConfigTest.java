package dev.esgen.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.esgen.runtime.config.ReadConsistency;
import dev.esgen.runtime.config.StoreConfig;
import dev.esgen.runtime.testing.TestDynamo;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;

class StoreConfigTest {

  /** Names of tables that do not exist, some of which DynamoDB refuses as names. */
  private static final List<String> NAMES = List.of("", "ab", "abc", "a b", "x/y", "tables#1", "journal:v2",
      "é-journal", "my_table.v1-2", "-.-", "t".repeat(255), "t".repeat(256));

  @Test
  void aTableNameIsTakenExactlyWhenDynamoDbTakesIt() {
    for (String name : NAMES) {
      String unused = name.length() >= 255 ? name : name + (name.length() > 2 ? "-" + UUID.randomUUID() : "");
      boolean dynamoTakesIt = dynamoTakes(unused);
      for (String setting : List.of("journalTable", "snapshotTable", "tipTable", "positionsTable")) {
        if (dynamoTakesIt) {
          assertEquals(unused, name(withTable(setting, unused), setting), setting);
        } else {
          IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> withTable(setting, unused),
              setting + " '" + unused + "'");
          assertTrue(e.getMessage().startsWith(setting + " '" + unused + "' is no DynamoDB table name: it must have"
              + " 3 to 255 characters"), e.getMessage());
        }
      }
    }
  }

  @Test
  void aTablesArnIsTaken() {
    String arn = "arn:aws:dynamodb:eu-west-1:123456789012:table/prod-journal";
    assertEquals(arn, StoreConfig.defaults().withJournalTable(arn).journalTable());
  }

  @Test
  void aReadConsistencyIsSetByAnAggregateTypesStoredNameNotItsClassName() {
    assertEquals(ReadConsistency.EVENTUAL, StoreConfig.defaults()
        .withReadConsistency("bank-account", ReadConsistency.EVENTUAL).readConsistencyOf("bank-account"));
    for (String name : List.of("BankAccount", "bank_account", "bank--account", "", "-bank")) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> StoreConfig.defaults().withReadConsistency(name, ReadConsistency.EVENTUAL), name);
      assertTrue(e.getMessage().startsWith("readConsistencyByType names '" + name + "', which is no aggregate type's"
          + " stored name"), e.getMessage());
    }
  }

  /** Whether DynamoDB takes {@code name} as a table name: it looks for a table of that name. */
  private static boolean dynamoTakes(String name) {
    try {
      TestDynamo.client().describeTable(b -> b.tableName(name));
      throw new AssertionError("table " + name + " exists");
    } catch (ResourceNotFoundException e) {
      return true;
    } catch (DynamoDbException e) {
      assertEquals(400, e.statusCode(), e.getMessage());
      return false;
    }
  }

  private static StoreConfig withTable(String setting, String name) {
    StoreConfig defaults = StoreConfig.defaults();
    return switch (setting) {
      case "journalTable" -> defaults.withJournalTable(name);
      case "snapshotTable" -> defaults.withSnapshotTable(name);
      case "tipTable" -> defaults.withTipTable(name);
      default -> defaults.withPositionsTable(name);
    };
  }

  private static String name(StoreConfig config, String setting) {
    return switch (setting) {
      case "journalTable" -> config.journalTable();
      case "snapshotTable" -> config.snapshotTable();
      case "tipTable" -> config.tipTable();
      default -> config.positionsTable();
    };
  }
}
