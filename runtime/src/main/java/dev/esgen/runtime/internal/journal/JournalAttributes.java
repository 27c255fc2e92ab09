package dev.esgen.runtime.internal.journal;

/**
 * The attribute names of the journal and snapshot tables, the stored format's vocabulary.
 *
 * <p>Journal item: {@link #PKEY}, {@link #SKEY}, {@link #AID}, {@link #SEQ_NR}, {@link #EVENT_TYPE},
 * {@link #PAYLOAD}, {@link #OCCURRED_AT}, for an event above version 1 {@link #EVENT_VERSION}, on the
 * first event of each append {@link #APPEND_ID}, and on the events of an append that carried metadata
 * {@link #METADATA}.
 * Snapshot head row (seq_nr 0 in its sort key): {@link #PKEY},
 * {@link #SKEY}, {@link #AID}, {@link #PAYLOAD}, {@link #SEQ_NR} (where the snapshot was taken),
 * {@link #SNAPSHOT_SCHEMA}, {@link #LAST_SEQ_NR}, {@link #VERSION} and, when snapshot rows are kept,
 * {@link #RETAINED_SEQ_NRS}. Snapshot row (each snapshot's, the current one's included, when kept):
 * {@link #PKEY}, {@link #SKEY}, {@link #AID}, {@link #PAYLOAD}, {@link #SEQ_NR}, {@link #SNAPSHOT_SCHEMA}
 * and, once displaced in TTL mode, {@link #TTL}.
 *
 * <pre>{@code
 * long version = Long.parseLong(headRow.get(JournalAttributes.VERSION).n());
 * }</pre>
 */
public final class JournalAttributes {

  private JournalAttributes() {}

  /** Partition key (S): {@code {aggregate-name}-{shard}}. */
  public static final String PKEY = "pkey";

  /** Sort key (S): {@code {aggregate-name}-{aid}-{seq_nr padded to 20 digits}}. */
  public static final String SKEY = "skey";

  /** The aggregate id's string form (S). */
  public static final String AID = "aid";

  /**
   * The event's seq_nr, from 1 (N); on a snapshot row the seq_nr it was taken at; 0 on a head row whose
   * stream has no snapshot yet (the first one was too large to store).
   */
  public static final String SEQ_NR = "seq_nr";

  /** The event's stored type name (S). */
  public static final String EVENT_TYPE = "event_type";

  /**
   * The version of the event's stored shape (N), only when above 1: an event without it is at version 1,
   * as every event was before versions existed.
   */
  public static final String EVENT_VERSION = "event_version";

  /** The event's or snapshot's JSON body (B). */
  public static final String PAYLOAD = "payload";

  /** When the event was appended, ISO-8601 from the store's clock (S). */
  public static final String OCCURRED_AT = "occurred_at";

  /**
   * First event of an append: the append's id (S, 22 characters), by which a writer whose request's
   * outcome was unknown recognises its own append.
   */
  public static final String APPEND_ID = "append_id";

  /**
   * Every event of an append that carried metadata: a map (M) of {@code correlation_id},
   * {@code causation_id}, {@code actor} (S) and {@code attributes} (M of S), each only when set.
   */
  public static final String METADATA = "metadata";

  /**
   * Beside a snapshot's {@link #PAYLOAD}: the snapshot codec's fingerprint of the state shape and handler
   * code it was written with (S); absent for codecs without one and for snapshots stored before it existed.
   */
  public static final String SNAPSHOT_SCHEMA = "snapshot_schema";

  /** Head row: the stream's last seq_nr (N); equal to {@link #SEQ_NR} when the snapshot is current. */
  public static final String LAST_SEQ_NR = "last_seq_nr";

  /** Head row: the optimistic-lock version (N), 1 after creation, +1 per append. */
  public static final String VERSION = "version";

  /** Head row: seq_nrs of the snapshot rows still kept (L of N), oldest first, the current snapshot's last. */
  public static final String RETAINED_SEQ_NRS = "retained_seq_nrs";

  /** Displaced snapshot row in TTL mode: when DynamoDB may delete it, epoch seconds (N). */
  public static final String TTL = "ttl";

  /** The optional global secondary index of the journal on {@link #AID} and {@link #SEQ_NR}. */
  public static final String AID_INDEX = "aid-index";
}
