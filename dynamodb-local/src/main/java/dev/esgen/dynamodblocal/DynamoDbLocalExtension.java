package dev.esgen.dynamodblocal;

import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * A JUnit 5 extension that hands tests the JVM's shared {@link DynamoDbLocal} server.
 *
 * <pre>{@code
 * @ExtendWith(DynamoDbLocalExtension.class)
 * class AppendTest {
 *   @Test
 *   void appends(DynamoDbLocal dynamo) {
 *     DynamoDbClient client = DynamoDbClient.builder().endpointOverride(dynamo.endpoint())...build();
 *   }
 * }
 * }</pre>
 */
public final class DynamoDbLocalExtension implements ParameterResolver {

  @Override
  public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
    return parameter.getParameter().getType() == DynamoDbLocal.class;
  }

  @Override
  public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
    return DynamoDbLocal.shared();
  }
}
