package dev.esgen.runtime.faults;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.Predicate;
import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.core.SdkRequest;
import software.amazon.awssdk.core.exception.ApiCallAttemptTimeoutException;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttribute;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.http.SdkHttpResponse;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.CancellationReason;
import software.amazon.awssdk.services.dynamodb.model.InternalServerErrorException;
import software.amazon.awssdk.services.dynamodb.model.ProvisionedThroughputExceededException;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsRequest;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;

/**
 * An SDK {@link ExecutionInterceptor} that makes DynamoDB requests fail the ways a real network and a
 * real DynamoDB make them fail, on the client it is added to: responses lost after DynamoDB applied the
 * write, time-outs before and after sending, server errors, throttling and cancelled transactions (see
 * {@link Fault}).
 *
 * <p>Faults are chosen per attempt, in this order: nothing while {@linkplain #enabled(boolean) disabled};
 * the rest of a running streak on the calling thread; the next {@linkplain #enqueue scripted} fault for
 * the request's type; an {@linkplain #always always} fault for it; a random one at the configured rates,
 * from a seeded {@link Random}. A streak (see {@link Builder#streaks}) repeats one failure on the
 * thread's next requests, long enough for a retry budget to run out: "the SDK gives up". Thread-safe.
 *
 * <p>A fault that DynamoDB does not apply is thrown from {@code beforeTransmission}, so the request never
 * leaves the client. A lost response replaces DynamoDB's real answer with an {@code InternalServerError}
 * after it applied the request; a time-out after applying is thrown once the response was read.
 *
 * <pre>{@code
 * FaultInjector faults = FaultInjector.builder(42).rate(Fault.LOST_RESPONSE, 0.1).rate(Fault.THROTTLED, 0.1).build();
 * DynamoDbClient client = DynamoDbClient.builder()...overrideConfiguration(c -> c.addExecutionInterceptor(faults)).build();
 * faults.enqueue(UpdateItemRequest.class, Fault.LOST_RESPONSE);   // the next UpdateItem's response is lost
 * }</pre>
 */
public final class FaultInjector implements ExecutionInterceptor {

  private static final ExecutionAttribute<Optional<Fault>> CHOSEN = new ExecutionAttribute<>("esgen.test.fault");

  private final Random random;
  private final Map<Fault, Double> rates;
  private final double streakRate;
  private final int streakLength;
  private final Predicate<SdkRequest> targets;
  private volatile boolean enabled = true;
  private final List<Scripted> script = Collections.synchronizedList(new ArrayList<>());
  private final Map<Class<?>, Fault> always = new ConcurrentHashMap<>();
  private final ThreadLocal<Streak> streak = new ThreadLocal<>();
  private final AtomicLong generation = new AtomicLong();
  private final AtomicReference<Consumer<SdkRequest>> others = new AtomicReference<>(request -> {});
  private final Map<Fault, AtomicLong> injected = new EnumMap<>(Fault.class);
  private final AtomicLong appliedWrites = new AtomicLong();
  private final AtomicLong streaks = new AtomicLong();
  private final AtomicLong executions = new AtomicLong();
  private final AtomicLong transmissions = new AtomicLong();

  private FaultInjector(Builder builder) {
    this.random = new Random(builder.seed);
    this.rates = Collections.unmodifiableMap(new EnumMap<>(builder.rates));
    this.streakRate = builder.streakRate;
    this.streakLength = builder.streakLength;
    this.targets = builder.targets;
    for (Fault fault : Fault.values()) {
      injected.put(fault, new AtomicLong());
    }
  }

  /** An injector with no random faults: only scripted and always faults until rates are given. */
  public static Builder builder(long seed) {
    return new Builder(seed);
  }

  /** Switches every fault on or off (scripted ones stay queued); off also ends running streaks. */
  public FaultInjector enabled(boolean on) {
    generation.incrementAndGet();
    enabled = on;
    return this;
  }

  /** The next requests of {@code type}, one per fault, fail with {@code faults}, in order. */
  public FaultInjector enqueue(Class<? extends SdkRequest> type, Fault... faults) {
    for (Fault fault : faults) {
      script.add(new Scripted(type, fault));
    }
    return this;
  }

  /** Every request of {@code type} fails with {@code fault} until {@link #clear()}. */
  public FaultInjector always(Class<? extends SdkRequest> type, Fault fault) {
    always.put(type, fault);
    return this;
  }

  /** Forgets scripted and always faults. */
  public FaultInjector clear() {
    script.clear();
    always.clear();
    return this;
  }

  /**
   * What runs, on the writer's thread, between DynamoDB applying a request picked for
   * {@link Fault#LOST_RESPONSE_AFTER_OTHERS} and the writer seeing its response lost.
   */
  public FaultInjector onLostResponse(Consumer<SdkRequest> action) {
    others.set(Objects.requireNonNull(action, "action"));
    return this;
  }

  /** How many faults of each kind were injected. */
  public Map<Fault, Long> injected() {
    Map<Fault, Long> counts = new EnumMap<>(Fault.class);
    injected.forEach((fault, count) -> counts.put(fault, count.get()));
    return counts;
  }

  /** How many faults were injected in all. */
  public long injectedTotal() {
    return injected.values().stream().mapToLong(AtomicLong::get).sum();
  }

  /** How many write requests DynamoDB applied although the caller was told they failed. */
  public long appliedWrites() {
    return appliedWrites.get();
  }

  /** How many streaks were started. */
  public long streaks() {
    return streaks.get();
  }

  /** Requests the client carried out (one per call of the client). */
  public long executions() {
    return executions.get();
  }

  /** Attempts the SDK made for them: more than {@link #executions()} only if the SDK retried by itself. */
  public long transmissions() {
    return transmissions.get();
  }

  @Override
  public void beforeExecution(Context.BeforeExecution context, ExecutionAttributes attributes) {
    executions.incrementAndGet();
  }

  @Override
  public void beforeTransmission(Context.BeforeTransmission context, ExecutionAttributes attributes) {
    transmissions.incrementAndGet();
    SdkRequest request = context.request();
    Optional<Fault> fault = enabled && targets.test(request) ? choose(request) : Optional.empty();
    attributes.putAttribute(CHOSEN, fault);
    if (fault.isPresent() && !fault.get().applied()) {
      injected.get(fault.get()).incrementAndGet();
      throw failure(fault.get(), request);
    }
  }

  @Override
  public SdkHttpResponse modifyHttpResponse(Context.ModifyHttpResponse context, ExecutionAttributes attributes) {
    Fault fault = chosen(attributes);
    if (fault != Fault.LOST_RESPONSE && fault != Fault.LOST_RESPONSE_AFTER_OTHERS) {
      return context.httpResponse();
    }
    injected.get(fault).incrementAndGet();
    if (context.httpResponse().isSuccessful() && isWrite(context.request())) {
      appliedWrites.incrementAndGet();
    }
    if (fault == Fault.LOST_RESPONSE_AFTER_OTHERS) {
      others.get().accept(context.request());
    }
    // DynamoDB's own answer to a request it could not finish; the checksum of the real body must go.
    return context.httpResponse().toBuilder()
        .statusCode(500)
        .removeHeader("x-amz-crc32")
        .removeHeader("Content-Length")
        .putHeader("x-amzn-ErrorType", "InternalServerError")
        .build();
  }

  @Override
  public Optional<InputStream> modifyHttpResponseContent(
      Context.ModifyHttpResponse context, ExecutionAttributes attributes) {
    Fault fault = chosen(attributes);
    if (fault != Fault.LOST_RESPONSE && fault != Fault.LOST_RESPONSE_AFTER_OTHERS) {
      return context.responseBody();
    }
    context.responseBody().ifPresent(FaultInjector::drain);
    return Optional.of(new ByteArrayInputStream(
        "{\"__type\":\"com.amazonaws.dynamodb.v20120810#InternalServerError\",\"message\":\"injected: response lost\"}"
            .getBytes(StandardCharsets.UTF_8)));
  }

  /**
   * Times the call out once its whole response was read and handled. Not in {@code modifyResponse}: a
   * failure thrown there makes the asynchronous (Netty) client close the connection after it went back to
   * the pool, so the next request on it fails as well, a second fault no test scripted (see
   * {@code AsyncFaults}).
   */
  @Override
  public void afterExecution(Context.AfterExecution context, ExecutionAttributes attributes) {
    if (chosen(attributes) == Fault.TIMEOUT_AFTER_APPLY) {
      injected.get(Fault.TIMEOUT_AFTER_APPLY).incrementAndGet();
      if (isWrite(context.request())) {
        appliedWrites.incrementAndGet();
      }
      throw ApiCallAttemptTimeoutException.create(100);
    }
  }

  /**
   * The id string of the stream a write request appends to, as esgen's layouts write it: every item
   * they put carries {@code aid}, and a tip update is keyed by {@code {aggregate}#{aid}}.
   */
  public static Optional<String> streamOf(SdkRequest request) {
    if (request instanceof PutItemRequest put && put.item().containsKey("aid")) {
      return Optional.of(put.item().get("aid").s());
    }
    if (request instanceof UpdateItemRequest update) {
      return tipKey(update.key());
    }
    if (request instanceof TransactWriteItemsRequest transaction) {
      for (TransactWriteItem item : transaction.transactItems()) {
        if (item.put() != null && item.put().item().containsKey("aid")) {
          return Optional.of(item.put().item().get("aid").s());
        }
        if (item.update() != null && tipKey(item.update().key()).isPresent()) {
          return tipKey(item.update().key());
        }
      }
    }
    return Optional.empty();
  }

  private static Optional<String> tipKey(Map<String, AttributeValue> key) {
    AttributeValue stream = key.get("p");
    if (stream == null || stream.s() == null || stream.s().indexOf('#') < 0) {
      return Optional.empty();
    }
    return Optional.of(stream.s().substring(stream.s().indexOf('#') + 1));
  }

  private Optional<Fault> choose(SdkRequest request) {
    Streak current = streak.get();
    if (current == null || current.generation() != generation.get()) {
      current = new Streak(generation.get(), new ArrayDeque<>());
      streak.set(current);
    }
    Deque<Fault> running = current.faults();
    while (!running.isEmpty()) {
      Fault next = running.poll();
      if (applicable(next, request)) {
        return Optional.of(next);
      }
    }
    synchronized (script) {
      for (int k = 0; k < script.size(); k++) {
        if (script.get(k).type().isInstance(request)) {
          return Optional.of(script.remove(k).fault());
        }
      }
    }
    for (Map.Entry<Class<?>, Fault> entry : always.entrySet()) {
      if (entry.getKey().isInstance(request)) {
        return Optional.of(entry.getValue());
      }
    }
    double draw;
    double streakDraw;
    int streakKind;
    synchronized (random) {
      draw = random.nextDouble();
      streakDraw = random.nextDouble();
      streakKind = random.nextInt(3);
    }
    if (streakDraw < streakRate && isWrite(request)) {
      streaks.incrementAndGet();
      // Long enough for any budget the tests use to run out: the same failure until the operation gives up.
      // A third each: throttling throughout; a lost response after DynamoDB applied the write, then server
      // errors; server errors throughout, nothing applied.
      Fault repeated = streakKind == 0 ? Fault.THROTTLED : Fault.SERVER_ERROR;
      for (int k = 1; k < streakLength; k++) {
        running.add(repeated);
      }
      return Optional.of(streakKind == 1 ? Fault.LOST_RESPONSE : repeated);
    }
    double bound = 0;
    for (Map.Entry<Fault, Double> rate : rates.entrySet()) {
      if (!applicable(rate.getKey(), request)) {
        continue;
      }
      bound += rate.getValue();
      if (draw < bound) {
        return Optional.of(rate.getKey());
      }
    }
    return Optional.empty();
  }

  private static boolean applicable(Fault fault, SdkRequest request) {
    if (fault.transactionsOnly()) {
      return request instanceof TransactWriteItemsRequest;
    }
    if (fault == Fault.LOST_RESPONSE_AFTER_OTHERS) {
      return isWrite(request);
    }
    return true;
  }

  private static boolean isWrite(SdkRequest request) {
    return request instanceof PutItemRequest || request instanceof UpdateItemRequest
        || request instanceof TransactWriteItemsRequest;
  }

  private static Fault chosen(ExecutionAttributes attributes) {
    Optional<Fault> fault = attributes.getAttribute(CHOSEN);
    return fault == null ? null : fault.orElse(null);
  }

  private RuntimeException failure(Fault fault, SdkRequest request) {
    switch (fault) {
      case TIMEOUT_BEFORE_SEND:
        return ApiCallAttemptTimeoutException.create(100);
      case SERVER_ERROR:
        return InternalServerErrorException.builder()
            .message("injected: internal server error")
            .statusCode(500)
            .awsErrorDetails(details("InternalServerError", 500))
            .build();
      case THROTTLED:
        return ProvisionedThroughputExceededException.builder()
            .message("injected: throughput exceeded")
            .statusCode(400)
            .awsErrorDetails(details("ProvisionedThroughputExceededException", 400))
            .build();
      case TRANSACTION_CONFLICT:
        return cancelled((TransactWriteItemsRequest) request, "TransactionConflict",
            "Transaction is ongoing for the item");
      case THROTTLED_CANCELLATION:
        return cancelled((TransactWriteItemsRequest) request, "ThrottlingError",
            "Throughput exceeds the current capacity for one or more global secondary indexes");
      default:
        throw new IllegalStateException(fault + " is applied before it fails");
    }
  }

  /** A cancellation as DynamoDB reports it: one reason per action, {@code None} but for one of them. */
  private TransactionCanceledException cancelled(TransactWriteItemsRequest request, String code, String message) {
    int actions = request.transactItems().size();
    int failing;
    synchronized (random) {
      failing = random.nextInt(actions);
    }
    List<CancellationReason> reasons = new ArrayList<>();
    List<String> codes = new ArrayList<>();
    for (int k = 0; k < actions; k++) {
      reasons.add(k == failing
          ? CancellationReason.builder().code(code).message(message).build()
          : CancellationReason.builder().code("None").build());
      codes.add(k == failing ? code : "None");
    }
    return TransactionCanceledException.builder()
        .message("injected: Transaction cancelled, please refer cancellation reasons for specific reasons " + codes)
        .statusCode(400)
        .awsErrorDetails(details("TransactionCanceledException", 400))
        .cancellationReasons(reasons)
        .build();
  }

  private static AwsErrorDetails details(String code, int status) {
    return AwsErrorDetails.builder()
        .errorCode(code)
        .errorMessage("injected")
        .serviceName("DynamoDb")
        .sdkHttpResponse(SdkHttpResponse.builder().statusCode(status).build())
        .build();
  }

  private static void drain(InputStream body) {
    try (body) {
      body.readAllBytes();
    } catch (java.io.IOException ignored) {
      // The body is thrown away anyway.
    }
  }

  private record Streak(long generation, Deque<Fault> faults) {}

  private record Scripted(Class<? extends SdkRequest> type, Fault fault) {}

  /** Rates, streaks and targets of a {@link FaultInjector}. */
  public static final class Builder {
    private final long seed;
    private final Map<Fault, Double> rates = new EnumMap<>(Fault.class);
    private double streakRate;
    private int streakLength;
    private Predicate<SdkRequest> targets = request -> true;

    private Builder(long seed) {
      this.seed = seed;
    }

    /** Each attempt fails with {@code fault} with probability {@code rate} (the rates add up). */
    public Builder rate(Fault fault, double rate) {
      if (rate < 0 || rate > 1) {
        throw new IllegalArgumentException("a rate is a probability, not " + rate);
      }
      rates.put(fault, rate);
      return this;
    }

    /**
     * With probability {@code rate} per write attempt a streak starts: the write and the thread's next
     * {@code length - 1} requests fail, all throttled, or all with server errors, the first one possibly
     * after DynamoDB applied it (a lost response).
     */
    public Builder streaks(double rate, int length) {
      this.streakRate = rate;
      this.streakLength = length;
      return this;
    }

    /** Only requests {@code targets} accepts get faults. */
    public Builder targets(Predicate<SdkRequest> accepted) {
      this.targets = Objects.requireNonNull(accepted, "accepted");
      return this;
    }

    public FaultInjector build() {
      double total = rates.values().stream().mapToDouble(Double::doubleValue).sum();
      if (total > 1) {
        throw new IllegalArgumentException("the fault rates add up to " + total + ", over 1");
      }
      return new FaultInjector(this);
    }
  }
}
