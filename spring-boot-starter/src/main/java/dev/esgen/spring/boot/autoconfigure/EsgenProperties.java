package dev.esgen.spring.boot.autoconfigure;

import dev.esgen.runtime.config.RetryPolicy;
import dev.esgen.runtime.config.StoreConfig;
import java.time.Duration;
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

  public Provision getProvision() {
    return provision;
  }

  public Repositories getRepositories() {
    return repositories;
  }

  public Metrics getMetrics() {
    return metrics;
  }

  /** {@link StoreConfig#defaults()} with these tables, this retry policy and this aid index setting. */
  public StoreConfig toStoreConfig() {
    return StoreConfig.defaults()
        .withJournalTable(tables.getJournal())
        .withSnapshotTable(tables.getSnapshot())
        .withTipTable(tables.getTip())
        .withRetryPolicy(retry.toRetryPolicy())
        .withAidIndex(aidIndex);
  }

  /** The names of the tables the store uses. */
  public static class Tables {

    /** The table holding one item per event (journal layout). */
    private String journal = "journal";

    /** The table holding each stream's head row and kept snapshots (journal layout). */
    private String snapshot = "snapshot";

    /** The table holding each stream's tip item and calved batches (tip layout). */
    private String tip = "streams";

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
  }

  /**
   * The one retry budget of every repository operation: conflicts, throttling and writes whose outcome
   * is unknown all draw on it.
   */
  public static class Retry {

    /** Attempts in all, the first included; 1 means no retry. */
    private int maxAttempts = 20;

    /** The bound of the first jittered wait, doubled after each failed attempt. */
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
