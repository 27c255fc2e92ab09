package dev.esgen.runtime.error;

import dev.esgen.runtime.internal.keys.KeyStrings;
import java.util.Locale;

/**
 * An aggregate id's string form cannot be stored: it is empty, or longer than the DynamoDB keys built
 * from it allow. It is raised before anything is sent, so nothing was read or written. The limit depends
 * on the aggregate's name and layout (see {@code docs/schema.md}); the message quotes at most the id's
 * first {@value #PREFIX_LENGTH} characters, never a whole long id.
 *
 * <pre>{@code
 * try {
 *   documents.create(new DocumentCreated(new DocumentId(path), title));
 * } catch (InvalidIdException e) {
 *   // "document id 'contracts/2024/acme-corporation/...' is 1,204 bytes of UTF-8, over the limit of
 *   //  994 bytes the DynamoDB keys built from it allow; nothing was sent"
 *   return badRequest("path too long: at most " + e.limitBytes() + " bytes");
 * }
 * }</pre>
 */
public class InvalidIdException extends EsgenException {

  private static final long serialVersionUID = 1L;

  /** How many characters (code points) of the id the message and {@link #idPrefix()} keep. */
  public static final int PREFIX_LENGTH = 32;

  private final String aggregateName;
  private final String idPrefix;
  private final long sizeBytes;
  private final long limitBytes;

  /**
   * @param id the refused id string; only its first {@value #PREFIX_LENGTH} characters are kept
   * @param sizeBytes its length in UTF-8 bytes, 0 when it is empty
   * @param limitBytes the most UTF-8 bytes an id of this aggregate type may have
   */
  public InvalidIdException(String aggregateName, String id, long sizeBytes, long limitBytes) {
    this(message(aggregateName, prefix(id), sizeBytes, limitBytes), aggregateName, prefix(id), sizeBytes, limitBytes);
  }

  private InvalidIdException(String message, String aggregateName, String idPrefix, long sizeBytes, long limitBytes) {
    super(message);
    this.aggregateName = aggregateName;
    this.idPrefix = idPrefix;
    this.sizeBytes = sizeBytes;
    this.limitBytes = limitBytes;
  }

  /**
   * An id whose char at {@code index} is half of a surrogate pair without its other half: it has no
   * UTF-8 form, so no DynamoDB key can hold it. {@link #sizeBytes()} is -1; the message and
   * {@link #idPrefix()} quote the id only up to that char.
   *
   * @param limitBytes the most UTF-8 bytes an id of this aggregate type may have
   */
  public static InvalidIdException notUnicode(String aggregateName, String id, int index, long limitBytes) {
    String before = prefix(id.substring(0, index));
    return new InvalidIdException(String.format(Locale.ROOT, "%s id '%s' is not well-formed Unicode: %s for a"
        + " DynamoDB key; nothing was sent", aggregateName, before, KeyStrings.unpairedSurrogateReason(index)),
        aggregateName, before, -1, limitBytes);
  }

  private static String message(String aggregateName, String prefix, long sizeBytes, long limitBytes) {
    if (sizeBytes == 0) {
      return String.format(Locale.ROOT,
          "%s id is empty; an id string must be 1 to %,d bytes of UTF-8. Nothing was sent",
          aggregateName, limitBytes);
    }
    return String.format(Locale.ROOT,
        "%s id '%s' is %,d bytes of UTF-8, over the limit of %,d bytes the DynamoDB keys built from it allow;"
            + " nothing was sent",
        aggregateName, prefix, sizeBytes, limitBytes);
  }

  /** The id's first {@value #PREFIX_LENGTH} code points followed by {@code ...}, or the whole id when shorter. */
  private static String prefix(String id) {
    int end = 0;
    for (int kept = 0; kept < PREFIX_LENGTH && end < id.length(); kept++) {
      end = id.offsetByCodePoints(end, 1);
    }
    return end == id.length() ? id : id.substring(0, end) + "...";
  }

  /** The stored name of the aggregate type, such as {@code bank-account}. */
  public String aggregateName() {
    return aggregateName;
  }

  /** The start of the refused id as the message quotes it: its first characters and {@code ...} when longer. */
  public String idPrefix() {
    return idPrefix;
  }

  /** The refused id's length in UTF-8 bytes; 0 when it was empty, -1 when it has no UTF-8 form. */
  public long sizeBytes() {
    return sizeBytes;
  }

  /** The most UTF-8 bytes an id of this aggregate type may have, in its layout. */
  public long limitBytes() {
    return limitBytes;
  }
}
