package dev.esgen.processor;

/**
 * Java source text reduced to what the compiler reads: comments dropped, and whitespace kept only where
 * it separates two words ({@code return x}), so reformatting or commenting code leaves the text the same
 * while any change of tokens changes it. String, character and text-block literals are kept exactly.
 */
final class SourceText {

  private SourceText() {}

  static String normalized(CharSequence source) {
    StringBuilder out = new StringBuilder(source.length());
    boolean space = false;
    int i = 0;
    int n = source.length();
    while (i < n) {
      char c = source.charAt(i);
      char next = i + 1 < n ? source.charAt(i + 1) : '\0';
      if (c == '/' && next == '/') {
        while (i < n && source.charAt(i) != '\n') {
          i++;
        }
        space = true;
      } else if (c == '/' && next == '*') {
        int end = indexOf(source, "*/", i + 2);
        i = end < 0 ? n : end + 2;
        space = true;
      } else if (Character.isWhitespace(c)) {
        space = true;
        i++;
      } else {
        if (space && out.length() > 0 && isWordPart(out.charAt(out.length() - 1)) && isWordPart(c)) {
          out.append(' ');
        }
        space = false;
        i = c == '"' || c == '\'' ? copyLiteral(source, i, out) : append(out, c, i);
      }
    }
    return out.toString();
  }

  private static int append(StringBuilder out, char c, int i) {
    out.append(c);
    return i + 1;
  }

  /** Copies the literal starting at {@code start} (a string, a text block or a character) and returns where it ends. */
  private static int copyLiteral(CharSequence source, int start, StringBuilder out) {
    char quote = source.charAt(start);
    boolean textBlock = quote == '"' && startsWith(source, start, "\"\"\"");
    int i = start + (textBlock ? 3 : 1);
    int n = source.length();
    while (i < n) {
      char c = source.charAt(i);
      if (c == '\\') {
        i += 2;
      } else if (textBlock ? startsWith(source, i, "\"\"\"") : c == quote) {
        i += textBlock ? 3 : 1;
        break;
      } else {
        i++;
      }
    }
    int end = Math.min(i, n);
    out.append(source, start, end);
    return end;
  }

  private static boolean isWordPart(char c) {
    return Character.isJavaIdentifierPart(c);
  }

  private static boolean startsWith(CharSequence source, int at, String prefix) {
    return at + prefix.length() <= source.length() && source.subSequence(at, at + prefix.length()).toString().equals(prefix);
  }

  private static int indexOf(CharSequence source, String target, int from) {
    return source.toString().indexOf(target, from);
  }
}
