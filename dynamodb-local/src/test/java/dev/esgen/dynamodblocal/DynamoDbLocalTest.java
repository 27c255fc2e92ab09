package dev.esgen.dynamodblocal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.Socket;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Talks to the server in DynamoDB's JSON protocol directly: this module must not depend on the AWS SDK
 * (see its pom), and DynamoDB Local does not check request signatures.
 */
class DynamoDbLocalTest {

  private static final String CREATE_TABLE =
      "{\"TableName\":\"launcher-check\",\"BillingMode\":\"PAY_PER_REQUEST\","
          + "\"AttributeDefinitions\":[{\"AttributeName\":\"k\",\"AttributeType\":\"S\"}],"
          + "\"KeySchema\":[{\"AttributeName\":\"k\",\"KeyType\":\"HASH\"}]}";

  @Test
  void startsOnLoopbackServesRequestsAndStops() throws Exception {
    DynamoDbLocal server = DynamoDbLocal.start();
    int port = server.endpoint().getPort();
    try (server) {
      assertEquals("127.0.0.1", server.endpoint().getHost());
      HttpResponse<String> created = call(server, "CreateTable", CREATE_TABLE);
      assertEquals(200, created.statusCode(), created.body());
      HttpResponse<String> listed = call(server, "ListTables", "{}");
      assertTrue(listed.body().contains("launcher-check"), listed.body());
      HttpResponse<String> missing = call(server, "DescribeTable", "{\"TableName\":\"absent\"}");
      assertEquals(400, missing.statusCode());
      assertTrue(missing.body().contains("ResourceNotFoundException"), missing.body());
    }
    assertFalse(isListening(port), "the server should be gone after close()");
  }

  @Test
  @ExtendWith(DynamoDbLocalExtension.class)
  void extensionHandsOutTheSharedServer(DynamoDbLocal dynamo) throws Exception {
    assertEquals(DynamoDbLocal.shared().endpoint(), dynamo.endpoint());
    assertEquals(200, call(dynamo, "ListTables", "{}").statusCode());
  }

  private static HttpResponse<String> call(DynamoDbLocal server, String operation, String body)
      throws IOException, InterruptedException {
    HttpRequest request =
        HttpRequest.newBuilder(server.endpoint())
            .header("Content-Type", "application/x-amz-json-1.0")
            .header("X-Amz-Target", "DynamoDB_20120810." + operation)
            .header(
                "Authorization",
                "AWS4-HMAC-SHA256 Credential=local/20260101/us-east-1/dynamodb/aws4_request,"
                    + " SignedHeaders=host, Signature=0")
            .POST(HttpRequest.BodyPublishers.ofString(body))
            .build();
    return HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofString());
  }

  private static boolean isListening(int port) {
    try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
      return socket.isConnected();
    } catch (IOException e) {
      return false;
    }
  }
}
