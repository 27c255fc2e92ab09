package dev.esgen.runtime.internal.keys;

/**
 * Which Java strings DynamoDB keys can hold. Every key esgen builds is stored as UTF-8, and a string with
 * half of a surrogate pair but not its other half has no UTF-8 form: Java's encoder silently writes
 * {@code ?} for such a char, so two different ids, command ids or values could name one key. Such strings
 * are refused before any request.
 *
 * <pre>{@code
 * KeyStrings.unpairedSurrogate("pay-" + (char) 0xD800);                 // 4: a high half alone
 * KeyStrings.unpairedSurrogate("pay-" + Character.toString(0x1F600));   // -1: a whole pair
 * }</pre>
 */
public final class KeyStrings {

  private KeyStrings() {}

  /**
   * The index of the first char of {@code s} that is half of a surrogate pair without its other half;
   * -1 when there is none.
   */
  public static int unpairedSurrogate(String s) {
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (!Character.isSurrogate(c)) {
        continue;
      }
      if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
        i++;
        continue;
      }
      return i;
    }
    return -1;
  }

  /**
   * Why a string whose char at {@code index} is {@linkplain #unpairedSurrogate unpaired} is refused, for the
   * messages that refuse it (which never quote the string past that char).
   */
  public static String unpairedSurrogateReason(int index) {
    return "char " + index + " is half of a surrogate pair without its other half, which has no UTF-8 form";
  }
}
