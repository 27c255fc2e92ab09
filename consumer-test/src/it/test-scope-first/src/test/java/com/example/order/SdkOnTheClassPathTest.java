package com.example.order;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.esgen.test.DynamoDbLocal;
import dev.esgen.test.DynamoDbLocalExtension;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.core.util.VersionInfo;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.utils.IoUtils;

@ExtendWith(DynamoDbLocalExtension.class)
class SdkOnTheClassPathTest {

  @Test
  void theSdksUtilitiesComeAtTheVersionOfItsCore() {
    String utilsJar = IoUtils.class.getProtectionDomain().getCodeSource().getLocation().getPath();
    assertTrue(utilsJar.endsWith("/utils-" + VersionInfo.SDK_VERSION + ".jar"),
        () -> "the SDK's core is " + VersionInfo.SDK_VERSION + ", its utilities come from " + utilsJar);
  }

  @Test
  void aClientWritesAndReadsOnDynamoDbLocal(DynamoDbLocal dynamo) {
    try (DynamoDbClient client = dynamo.newClient()) {
      client.createTable(b -> b.tableName("orders")
          .keySchema(k -> k.attributeName("id").keyType(KeyType.HASH))
          .attributeDefinitions(a -> a.attributeName("id").attributeType(ScalarAttributeType.S))
          .billingMode(BillingMode.PAY_PER_REQUEST));
      client.putItem(b -> b.tableName("orders").item(Map.of("id", AttributeValue.fromS("o-1"))));

      assertEquals("o-1", client.getItem(b -> b.tableName("orders")
          .key(Map.of("id", AttributeValue.fromS("o-1"))).consistentRead(true)).item().get("id").s());
    }
  }
}
