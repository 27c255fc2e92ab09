package dev.esgen.lambda;

import com.amazonaws.services.lambda.runtime.events.models.dynamodb.AttributeValue;
import java.nio.ByteBuffer;
import java.util.LinkedHashMap;
import java.util.Map;
import software.amazon.awssdk.core.SdkBytes;

/**
 * Attribute values between the Lambda event model ({@code aws-lambda-java-events}) and the AWS SDK v2,
 * every kind DynamoDB has: S, N, B, SS, NS, BS, M, L, NULL and BOOL. A value with no kind set (DynamoDB
 * Local streams an empty map so) stays one with no kind set. Binary values are copied, so neither side's
 * buffers are shared or moved.
 */
final class LambdaAttributeValues {

  private LambdaAttributeValues() {}

  static Map<String, software.amazon.awssdk.services.dynamodb.model.AttributeValue> toSdk(
      Map<String, AttributeValue> values) {
    Map<String, software.amazon.awssdk.services.dynamodb.model.AttributeValue> converted = new LinkedHashMap<>();
    values.forEach((name, value) -> converted.put(name, toSdk(value)));
    return converted;
  }

  static software.amazon.awssdk.services.dynamodb.model.AttributeValue toSdk(AttributeValue value) {
    if (value.getS() != null) {
      return software.amazon.awssdk.services.dynamodb.model.AttributeValue.fromS(value.getS());
    }
    if (value.getN() != null) {
      return software.amazon.awssdk.services.dynamodb.model.AttributeValue.fromN(value.getN());
    }
    if (value.getB() != null) {
      return software.amazon.awssdk.services.dynamodb.model.AttributeValue.fromB(bytes(value.getB()));
    }
    if (value.getSS() != null) {
      return software.amazon.awssdk.services.dynamodb.model.AttributeValue.fromSs(value.getSS());
    }
    if (value.getNS() != null) {
      return software.amazon.awssdk.services.dynamodb.model.AttributeValue.fromNs(value.getNS());
    }
    if (value.getBS() != null) {
      return software.amazon.awssdk.services.dynamodb.model.AttributeValue.fromBs(
          value.getBS().stream().map(LambdaAttributeValues::bytes).toList());
    }
    if (value.getM() != null) {
      return software.amazon.awssdk.services.dynamodb.model.AttributeValue.fromM(toSdk(value.getM()));
    }
    if (value.getL() != null) {
      return software.amazon.awssdk.services.dynamodb.model.AttributeValue.fromL(
          value.getL().stream().map(LambdaAttributeValues::toSdk).toList());
    }
    if (value.getNULL() != null) {
      return software.amazon.awssdk.services.dynamodb.model.AttributeValue.fromNul(value.getNULL());
    }
    if (value.getBOOL() != null) {
      return software.amazon.awssdk.services.dynamodb.model.AttributeValue.fromBool(value.getBOOL());
    }
    return software.amazon.awssdk.services.dynamodb.model.AttributeValue.builder().build();
  }

  static Map<String, AttributeValue> toLambda(
      Map<String, software.amazon.awssdk.services.dynamodb.model.AttributeValue> values) {
    Map<String, AttributeValue> converted = new LinkedHashMap<>();
    values.forEach((name, value) -> converted.put(name, toLambda(value)));
    return converted;
  }

  static AttributeValue toLambda(software.amazon.awssdk.services.dynamodb.model.AttributeValue value) {
    AttributeValue converted = new AttributeValue();
    switch (value.type()) {
      case S -> converted.setS(value.s());
      case N -> converted.setN(value.n());
      case B -> converted.setB(value.b().asByteBuffer());
      case SS -> converted.setSS(value.ss());
      case NS -> converted.setNS(value.ns());
      case BS -> converted.setBS(value.bs().stream().map(SdkBytes::asByteBuffer).toList());
      case M -> converted.setM(toLambda(value.m()));
      case L -> converted.setL(value.l().stream().map(LambdaAttributeValues::toLambda).toList());
      case NUL -> converted.setNULL(value.nul());
      case BOOL -> converted.setBOOL(value.bool());
      default -> {
        // A value of no kind this SDK knows stays a value of no kind, so that the round trip keeps it.
      }
    }
    return converted;
  }

  /** The bytes of {@code buffer}, from its position to its limit, without moving its position. */
  private static SdkBytes bytes(ByteBuffer buffer) {
    return SdkBytes.fromByteBuffer(buffer.duplicate());
  }
}
