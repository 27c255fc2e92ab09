package dev.esgen.runtime.faults;

import software.amazon.awssdk.core.exception.ApiCallAttemptTimeoutException;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsRequest;

/**
 * Runs {@link #first} before the next transaction is sent, then times that attempt out unsent: a
 * concurrent try of the same command wins while this try's first attempt is of unknown outcome.
 */
final class RaceBeforeFirstTransaction implements ExecutionInterceptor {

  /** What to run before the next transaction; cleared once run. */
  volatile Runnable first;

  @Override
  public void beforeTransmission(Context.BeforeTransmission context, ExecutionAttributes attributes) {
    Runnable run = first;
    if (run != null && context.request() instanceof TransactWriteItemsRequest) {
      first = null;
      run.run();
      throw ApiCallAttemptTimeoutException.create(100);
    }
  }
}
