package dev.esgen.testkit.memory;

import java.util.Comparator;

/**
 * The order DynamoDB sorts string keys in: by their UTF-8 bytes, which is the order of their code points.
 * Java's {@link String#compareTo} compares UTF-16 units instead and puts characters beyond U+FFFF (emoji,
 * for example) before U+E000 to U+FFFF; DynamoDB puts them after.
 *
 * <pre>{@code
 * List<String> ids = new ArrayList<>(List.of("\uFFFD", "\uD83D\uDE00", "a"));
 * ids.sort(Utf8Order.INSTANCE);    // "a", "\uFFFD", "\uD83D\uDE00"
 * }</pre>
 */
final class Utf8Order implements Comparator<String> {

  static final Utf8Order INSTANCE = new Utf8Order();

  private Utf8Order() {}

  @Override
  public int compare(String a, String b) {
    int i = 0;
    int j = 0;
    while (i < a.length() && j < b.length()) {
      int left = a.codePointAt(i);
      int right = b.codePointAt(j);
      if (left != right) {
        return Integer.compare(left, right);
      }
      i += Character.charCount(left);
      j += Character.charCount(right);
    }
    return Integer.compare(a.length() - i, b.length() - j);
  }
}
