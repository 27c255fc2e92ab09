package dev.esgen.spring.boot.autoconfigure;

import dev.esgen.runtime.config.ReadConsistency;
import dev.esgen.runtime.config.RetryPolicy;
import dev.esgen.runtime.config.StateCachePolicy;
import dev.esgen.runtime.config.StoreConfig;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The {@code esgen.*} properties: table names, retry policy, the journal's optional index, and what
 * the auto-configuration does at start-up. Every default is the one of {@link StoreConfig#defaults()}
 * and {@link RetryPolicy#defaults()}.
 *
 * <pre>{@code
 * esgen.tables.journal=prod-journal
 * esgen.tables.snapshot=prod-snapshot
 * esgen.tables.tip=prod-streams
 * esgen.retry.max-attempts=40
 * esgen.retry.deadline=30s
 * esgen.provision.enabled=true
 * }</pre>
 */
@ConfigurationProperties("esgen")
public class EsgenProperties {

  private final Tables tables = new Tables();

  private final Retry retry = new Retry();

  /**
   * Whether table provisioning gives the journal table its aid/seq_nr global secondary index. esgen
   * never reads through it; it serves operators' ad-hoc queries and is billed on every write.
   */
  private boolean aidIndex = false;

  // Plain text in the property javadoc: the configuration processor copies it as it is into the metadata
  // that IDEs show.
  /**
   * How loads and lookups read unless a call says otherwise: strong (the default) or eventual, which
   * costs half the read units; see docs/operations.md for which reads may.
   */
  private ReadConsistency readConsistency = ReadConsistency.STRONG;

  /** The read consistency of single aggregate types, by stored name (their @Aggregate name). */
  private final Map<String, ReadConsistency> readConsistencyByType = new LinkedHashMap<>();

  private final StateCache stateCache = new StateCache();

  private final Provision provision = new Provision();

  private final Repositories repositories = new Repositories();

  private final Metrics metrics = new Metrics();

  public Tables getTables() {
    return tables;
  }

  public Retry getRetry() {
    return retry;
  }

  public boolean isAidIndex() {
    return aidIndex;
  }

  public void setAidIndex(boolean aidIndex) {
    this.aidIndex = aidIndex;
  }

  public ReadConsistency getReadConsistency() {
    return readConsistency;
  }

  public void setReadConsistency(ReadConsistency readConsistency) {
    this.readConsistency = readConsistency;
  }

  public Map<String, ReadConsistency> getReadConsistencyByType() {
    return readConsistencyByType;
  }

  public StateCache getStateCache() {
    return stateCache;
  }

  public Provision getProvision() {
    return provision;
  }

  public Repositories getRepositories() {
    return repositories;
  }

  public Metrics getMetrics() {
    return metrics;
  }

  /**
   * {@link StoreConfig#defaults()} with these tables, this retry policy, aid index setting, read
   * consistency and state cache.
   */
  public StoreConfig toStoreConfig() {
    StoreConfig defaults = StoreConfig.defaults();
    // The four table names in one step: renamed one at a time, a table given another's default name (the
    // journal called "streams", the tip table renamed too) would clash with that default on the way.
    return new StoreConfig(tables.getJournal(), tables.getSnapshot(), defaults.clock(), defaults.objectMapper(),
        retry.toRetryPolicy(), aidIndex, tables.getTip(), defaults.listener(), readConsistency, readConsistencyByType,
        stateCache.toPolicy(), tables.getPositions());
  }

  /** The names of the tables the store uses. */
  public static class Tables {

    /** The table holding one item per event (journal layout). */
    private String journal = "journal";

    /** The table holding each stream's head row and kept snapshots (journal layout). */
    private String snapshot = "snapshot";

    /** The table holding each stream's tip item and calved batches (tip layout). */
    private String tip = "streams";

    /** The table where the change feed keeps each projection's position in each stream. */
    private String positions = "positions";

    public String getJournal() {
      return journal;
    }

    public void setJournal(String journal) {
      this.journal = journal;
    }

    public String getSnapshot() {
      return snapshot;
    }

    public void setSnapshot(String snapshot) {
      this.snapshot = snapshot;
    }

    public String getTip() {
      return tip;
    }

    public void setTip(String tip) {
      this.tip = tip;
    }

    public String getPositions() {
      return positions;
    }

    public void setPositions(String positions) {
      this.positions = positions;
    }
  }

  /**
   * What the store remembers of the streams it read and wrote, so that {@code transact} decides on the
   * remembered state and sends one request when no one else wrote, and a load reads only what was
   * appended since; off unless enabled.
   */
  public static class StateCache {

    /** Whether the store keeps a state cache. */
    private boolean enabled = false;

    /** How many streams the cache holds at most. */
    private long maxStreams = 10_000;

    /** How long after it was read or written a stream's entry is dropped. */
    private Duration maxAge = Duration.ofMinutes(5);

    public boolean isEnabled() {
      return enabled;
    }

    public void setEnabled(boolean enabled) {
      this.enabled = enabled;
    }

    public long getMaxStreams() {
      return maxStreams;
    }

    public void setMaxStreams(long maxStreams) {
      this.maxStreams = maxStreams;
    }

    public Duration getMaxAge() {
      return maxAge;
    }

    public void setMaxAge(Duration maxAge) {
      this.maxAge = maxAge;
    }

    /**
     * The policy these settings describe; {@link StateCachePolicy#disabled()} unless enabled. The size and
     * age are checked either way, so that an invalid one fails the start before the cache is switched on.
     */
    public StateCachePolicy toPolicy() {
      StateCachePolicy configured = StateCachePolicy.of(maxStreams, maxAge);
      return enabled ? configured : StateCachePolicy.disabled();
    }
  }

  /**
   * The one retry budget of every repository operation: conflicts, throttling and writes whose outcome
   * is unknown all draw on it.
   */
  public static class Retry {

    /** Attempts in all, the first included; 1 means no retry. */
    private int maxAttempts = 20;

    /** The base of the jittered waits: the first is up to twice it, the bound doubling after each failed attempt. */
    private Duration baseDelay = Duration.ofMillis(10);

    /** The largest bound any wait may have. */
    private Duration maxDelay = Duration.ofMillis(500);

    /** How long an operation may take in all, its requests and waits included. */
    private Duration deadline = Duration.ofSeconds(15);

    public int getMaxAttempts() {
      return maxAttempts;
    }

    public void setMaxAttempts(int maxAttempts) {
      this.maxAttempts = maxAttempts;
    }

    public Duration getBaseDelay() {
      return baseDelay;
    }

    public void setBaseDelay(Duration baseDelay) {
      this.baseDelay = baseDelay;
    }

    public Duration getMaxDelay() {
      return maxDelay;
    }

    public void setMaxDelay(Duration maxDelay) {
      this.maxDelay = maxDelay;
    }

    public Duration getDeadline() {
      return deadline;
    }

    public void setDeadline(Duration deadline) {
      this.deadline = deadline;
    }

    /** This budget as a {@link RetryPolicy}, which checks it. */
    public RetryPolicy toRetryPolicy() {
      return new RetryPolicy(maxAttempts, baseDelay, maxDelay, deadline);
    }
  }

  /** Table provisioning at start-up. */
  public static class Provision {

    /**
     * Whether the tables and the index slots of every repository bean's aggregate are created at start-up,
     * when missing. Meant for development and tests; production tables are better created as
     * infrastructure as code.
     */
    private boolean enabled = false;

    public boolean isEnabled() {
      return enabled;
    }

    public void setEnabled(boolean enabled) {
      this.enabled = enabled;
    }
  }

  /** Repository beans. */
  public static class Repositories {

    /**
     * Whether every generated repository in the auto-configuration packages (the package of the
     * application class and those below it) is registered as a bean.
     */
    private boolean enabled = true;

    public boolean isEnabled() {
      return enabled;
    }

    public void setEnabled(boolean enabled) {
      this.enabled = enabled;
    }
  }

  /** Micrometer meters. */
  public static class Metrics {

    /** Whether operations are recorded in the application's MeterRegistry, when it has one. */
    private boolean enabled = true;

    public boolean isEnabled() {
      return enabled;
    }

    public void setEnabled(boolean enabled) {
      this.enabled = enabled;
    }
  }
}
