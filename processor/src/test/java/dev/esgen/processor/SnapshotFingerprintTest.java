package dev.esgen.processor;

import static com.google.testing.compile.CompilationSubject.assertThat;
import static com.google.testing.compile.Compiler.javac;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.testing.compile.Compilation;
import com.google.testing.compile.JavaFileObjects;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * What changes the fingerprint a snapshot is stored with, and what does not: the same cart compiled as
 * released and after one change each, comparing the generated {@code CartRepository.SnapshotCodec.FINGERPRINT}.
 */
class SnapshotFingerprintTest {

  private static final String CART = """
      package fixture;

      import com.fasterxml.jackson.annotation.JsonProperty;
      import com.fasterxml.jackson.databind.node.ObjectNode;
      import dev.esgen.annotations.Aggregate;
      import dev.esgen.annotations.AggregateId;
      import dev.esgen.annotations.DomainEvents;
      import dev.esgen.annotations.EventType;
      import dev.esgen.annotations.Indexed;
      import dev.esgen.annotations.Upcast;
      import java.util.ArrayList;
      import java.util.List;

      @DomainEvents
      sealed interface CartEvent permits Opened, Added {}

      record Opened(String id) implements CartEvent {}

      @EventType("added")
      record Added(String sku, int quantity) implements CartEvent {}

      record Line(String sku, int quantity) {}

      enum Status { OPEN, CLOSED }

      @Aggregate(name = "cart", events = CartEvent.class)
      record Cart(@AggregateId String id, List<Line> lines, Status status) {
        static Cart open(Opened e) {
          return new Cart(e.id(), List.of(), Status.OPEN);
        }

        Cart apply(Added e) {
          return with(new Line(e.sku(), e.quantity()));
        }

        private Cart with(Line line) {
          List<Line> all = new ArrayList<>(lines);
          all.add(line);
          return new Cart(id, all, status);
        }

        List<CartEvent> add(String sku) {
          return List.of(new Added(sku, 1));
        }
      }
      """;

  private static final String RELEASED = fingerprint(CART);

  private static String fingerprint(String source) {
    Compilation compilation = javac().withProcessors(new EsgenProcessor())
        .compile(JavaFileObjects.forSourceString("fixture.Cart", source));
    assertThat(compilation).succeeded();
    try {
      String codec = compilation.generatedSourceFile("fixture.CartRepository").orElseThrow()
          .getCharContent(true).toString();
      Matcher constant = Pattern.compile("FINGERPRINT = \"([A-Za-z0-9_-]{11})\"").matcher(codec);
      assertTrue(constant.find(), codec);
      return constant.group(1);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String changed(String from, String to) {
    assertTrue(CART.contains(from), from);
    return fingerprint(CART.replace(from, to));
  }

  @Test
  void theSameSourceGivesTheSameFingerprint() {
    assertEquals(RELEASED, fingerprint(CART));
  }

  @Test
  void layoutAndCommentsDoNotChangeIt() {
    assertEquals(RELEASED, changed(
        "  Cart apply(Added e) {\n    return with(new Line(e.sku(), e.quantity()));\n  }",
        "  // adds a line\n  Cart apply( Added e ) { return with(\n"
            + "      new Line(e.sku(),   /* the quantity as given */ e.quantity())); }"));
  }

  @Test
  void aChangedApplyHandlerChangesIt() {
    assertNotEquals(RELEASED, changed("new Line(e.sku(), e.quantity())", "new Line(e.sku(), e.quantity() * 2)"));
  }

  @Test
  void aChangedCreatingMethodChangesIt() {
    assertNotEquals(RELEASED, changed("List.of(), Status.OPEN", "List.of(), Status.CLOSED"));
  }

  @Test
  void aChangedMethodOfTheAggregateThatAHandlerCallsChangesIt() {
    assertNotEquals(RELEASED, changed("all.add(line);", "all.add(0, line);"));
  }

  @Test
  void aChangedMethodCalledOnAnotherInstanceOfTheAggregateChangesIt() {
    String onACopy = CART.replace("return with(new Line(e.sku(), e.quantity()));",
        "Cart copy = this;\n    return copy.with(new Line(e.sku(), e.quantity()));");
    assertNotEquals(fingerprint(onACopy), fingerprint(onACopy.replace("all.add(line);", "all.add(0, line);")));
  }

  @Test
  void aChangedMethodAHandlerReferencesChangesIt() {
    String referenced = CART.replace("return with(new Line(e.sku(), e.quantity()));",
        "return java.util.Optional.of(new Line(e.sku(), e.quantity())).map(this::with).orElseThrow();");
    assertNotEquals(fingerprint(referenced), fingerprint(referenced.replace("all.add(line);", "all.add(0, line);")));
  }

  @Test
  void aChangedCommandDoesNotChangeIt() {
    assertEquals(RELEASED, changed("new Added(sku, 1)", "new Added(sku, 2)"));
  }

  @Test
  void aChangedStringLiteralChangesItThoughOnlyItsSpacingDiffers() {
    String withLiteral = CART.replace("Status.OPEN);", "Status.OPEN).withSku(\"a b\");")
        .replace("  List<CartEvent> add(", "  Cart withSku(String sku) {\n    return this;\n  }\n\n  List<CartEvent> add(");
    assertNotEquals(fingerprint(withLiteral), fingerprint(withLiteral.replace("\"a b\"", "\"a  b\"")));
  }

  @Test
  void anAddedComponentChangesIt() {
    assertNotEquals(RELEASED, fingerprint(CART
        .replace("List<Line> lines, Status status)", "List<Line> lines, Status status, String coupon)")
        .replace("new Cart(e.id(), List.of(), Status.OPEN)", "new Cart(e.id(), List.of(), Status.OPEN, null)")
        .replace("new Cart(id, all, status)", "new Cart(id, all, status, coupon)")));
  }

  @Test
  void aChangedTypeInsideTheStateChangesIt() {
    assertNotEquals(RELEASED, changed("record Line(String sku, int quantity) {}", "record Line(String sku, long quantity) {}"));
  }

  @Test
  void anAddedEnumConstantChangesIt() {
    assertNotEquals(RELEASED, changed("enum Status { OPEN, CLOSED }", "enum Status { OPEN, PAID, CLOSED }"));
  }

  @Test
  void aJacksonAnnotationOnAComponentChangesItAndAnIndexDoesNot() {
    assertNotEquals(RELEASED, changed("List<Line> lines, Status status)", "List<Line> lines, @JsonProperty(\"s\") Status status)"));
    assertEquals(RELEASED, changed("List<Line> lines, Status status)", "List<Line> lines, @Indexed Status status)"));
  }

  @Test
  void aChangedFieldOfAClassAggregatesSuperclassChangesIt() {
    String classCart = """
        package fixture;

        import dev.esgen.annotations.Aggregate;
        import dev.esgen.annotations.AggregateId;
        import dev.esgen.annotations.DomainEvents;

        @DomainEvents
        sealed interface CartEvent permits Opened {}

        record Opened(String id) implements CartEvent {}

        abstract class Totals {
          public long cents;
        }

        @Aggregate(name = "cart", events = CartEvent.class)
        final class Cart extends Totals {
          @AggregateId public String id;

          public Cart() {}

          static Cart open(Opened e) {
            Cart cart = new Cart();
            cart.id = e.id();
            return cart;
          }
        }
        """;
    String released = fingerprint(classCart);
    assertEquals(released, fingerprint(classCart));
    assertNotEquals(released, fingerprint(classCart.replace("public long cents;", "public long cents;\n  public int items;")));
    assertNotEquals(released, fingerprint(classCart.replace("public long cents;", "public double cents;")));

    String generic = classCart.replace("abstract class Totals {", "abstract class Totals<T> {\n  public T tag;")
        .replace("extends Totals {", "extends Totals<String> {");
    assertNotEquals(fingerprint(generic), fingerprint(generic.replace("Totals<String>", "Totals<Long>")),
        "an inherited field's type as a member of the aggregate");
  }

  /** A class aggregate whose creating method creates it through the constructor {@code constructor}. */
  private static String classCart(String fields, String constructor) {
    return """
        package fixture;

        import dev.esgen.annotations.Aggregate;
        import dev.esgen.annotations.AggregateId;
        import dev.esgen.annotations.DomainEvents;
        import java.util.ArrayList;
        import java.util.List;

        @DomainEvents
        sealed interface CartEvent permits Opened {}

        record Opened(String id) implements CartEvent {}

        @Aggregate(name = "cart", events = CartEvent.class)
        final class Cart {
          @AggregateId public String id;
        %s
        %s
          static Cart open(Opened e) {
            Cart cart = new Cart();
            cart.id = e.id();
            return cart;
          }
        }
        """.formatted(fields, constructor);
  }

  @Test
  void aChangedInitializerOfAClassAggregatesFieldsChangesIt() {
    String initialized = classCart("""
          public int items = 1;
          public List<String> skus = new ArrayList<>();

          {
            skus.add("gift");
          }
        """, "  public Cart() {}\n");
    String released = fingerprint(initialized);
    assertNotEquals(released, fingerprint(initialized.replace("items = 1;", "items = 2;")), "a field's initializer");
    assertNotEquals(released, fingerprint(initialized.replace("skus.add(\"gift\");", "skus.add(\"card\");")),
        "an initializer block");
    String implicit = initialized.replace("  public Cart() {}\n", "");
    assertNotEquals(fingerprint(implicit), fingerprint(implicit.replace("items = 1;", "items = 2;")),
        "created through the implicit constructor");
  }

  @Test
  void aClassAggregateWithoutInitializersKeepsItsFingerprint() {
    String plain = classCart("  public int items;\n", "  public Cart() {}\n");
    assertEquals(fingerprint(plain), fingerprint(plain.replace("public int items;",
        "public int items;\n  static final int UNUSED = 1;")), "nothing that creating it runs changed");
  }

  @Test
  void aJacksonAnnotationOnAStateTypeChangesIt() {
    assertNotEquals(RELEASED, changed("@Aggregate(name = \"cart\", events = CartEvent.class)\nrecord Cart(",
        "@Aggregate(name = \"cart\", events = CartEvent.class)\n"
            + "@com.fasterxml.jackson.databind.annotation.JsonNaming("
            + "com.fasterxml.jackson.databind.PropertyNamingStrategies.SnakeCaseStrategy.class)\nrecord Cart("));
    assertNotEquals(RELEASED, changed("record Line(String sku, int quantity) {}",
        "@com.fasterxml.jackson.annotation.JsonFormat(shape = com.fasterxml.jackson.annotation.JsonFormat.Shape.ARRAY)\n"
            + "record Line(String sku, int quantity) {}"));
  }

  @Test
  void aJacksonAnnotationOnAnEnumConstantChangesIt() {
    String named = CART.replace("enum Status { OPEN, CLOSED }", "enum Status { @JsonProperty(\"open\") OPEN, CLOSED }");
    assertNotEquals(RELEASED, fingerprint(named));
    assertNotEquals(fingerprint(named), fingerprint(named.replace("\"open\"", "\"opened\"")));
  }

  @Test
  void aChangedTypeBehindAWildcardChangesIt() {
    String wildcard = CART.replace("List<Line> lines, Status status)", "List<? extends Line> lines, Status status)");
    assertNotEquals(fingerprint(wildcard), fingerprint(wildcard.replace(
        "record Line(String sku, int quantity) {}", "record Line(String sku, long quantity) {}")));
  }

  @Test
  void aChangedInheritedFieldOfAStateClassChangesIt() {
    String inheriting = withDetail("""
        abstract class Base {
          public long total;
        }

        final class Detail extends Base {
          public String note;
        }""");
    assertNotEquals(fingerprint(inheriting), fingerprint(inheriting.replace("public long total;", "public long sum;")));
  }

  @Test
  void aChangedConstantAHandlerReadsChangesItAndOneNoHandlerReadsDoesNot() {
    String constants = CART
        .replace("  static Cart open(Opened e) {", "  static final int BONUS = 0;\n  static final int LIMIT = 10;\n\n"
            + "  static Cart open(Opened e) {")
        .replace("new Line(e.sku(), e.quantity())", "new Line(e.sku(), e.quantity() + BONUS)")
        .replace("return List.of(new Added(sku, 1));", "return List.of(new Added(sku, Cart.LIMIT));");
    String released = fingerprint(constants);
    assertNotEquals(released, fingerprint(constants.replace("BONUS = 0;", "BONUS = 1;")));
    assertEquals(released, fingerprint(constants.replace("LIMIT = 10;", "LIMIT = 20;")), "only a command reads LIMIT");
    assertEquals(RELEASED, changed("  static Cart open(Opened e) {", "  static final int UNUSED = 3;\n\n"
        + "  static Cart open(Opened e) {"), "a constant no handler reads leaves the fingerprint as it was");
  }

  @Test
  void whatAConstantsInitializerUsesCountsToo() {
    String chained = CART
        .replace("  static Cart open(Opened e) {", "  static final int BASE = 1;\n  static final int BONUS = BASE + step();\n\n"
            + "  static int step() {\n    return 1;\n  }\n\n  static Cart open(Opened e) {")
        .replace("new Line(e.sku(), e.quantity())", "new Line(e.sku(), e.quantity() + Cart.BONUS)");
    String released = fingerprint(chained);
    assertNotEquals(released, fingerprint(chained.replace("BASE = 1;", "BASE = 2;")), "another constant it names");
    assertNotEquals(released, fingerprint(chained.replace("return 1;", "return 2;")), "a method it calls");
  }

  @Test
  void aChangedStaticInitializerBlockOfTheAggregateWhoseFieldsTheCodeReadsChangesIt() {
    String filled = CART
        .replace("  static Cart open(Opened e) {", """
              static final java.util.Map<String, Integer> PACKS = new java.util.HashMap<>();

              static {
                PACKS.put("six", 6);
              }

              static Cart open(Opened e) {""")
        .replace("new Line(e.sku(), e.quantity())", "new Line(e.sku(), e.quantity() * PACKS.getOrDefault(e.sku(), 1))");
    assertNotEquals(fingerprint(filled), fingerprint(filled.replace("PACKS.put(\"six\", 6);", "PACKS.put(\"six\", 12);")));
  }

  @Test
  void whatAStaticInitializerBlockOfANestedClassCallsCountsToo() {
    String blank = NESTED
        .replace("static final class Rules {", """
            static final class Rules {
                static final int MAX;

                static {
                  List<Integer> limits = new ArrayList<>();
                  limits.add(limit());
                  MAX = limits.get(0);
                }

                static int limit() {
                  return 10;
                }
            """)
        .replace("Math.min(quantity, 10)", "Math.min(quantity, MAX)");
    String released = fingerprint(blank);
    assertNotEquals(released, fingerprint(blank.replace("return 10;", "return 20;")), "a method the block calls");
    assertNotEquals(released, fingerprint(blank.replace("MAX = limits.get(0);", "MAX = limits.get(0) + 1;")),
        "the block itself");
  }

  @Test
  void aStaticInitializerBlockOfAClassWhoseFieldsNoCodeReadsLeavesTheFingerprintAsItWas() {
    assertEquals(RELEASED, changed("  static Cart open(Opened e) {", """
          static final List<String> SKUS = new ArrayList<>();

          static {
            SKUS.add("a");
          }

          static Cart open(Opened e) {"""));
    assertEquals(fingerprint(NESTED), fingerprint(NESTED.replace("static final class Rules {", """
        static final class Rules {
            static final int UNUSED;

            static {
              UNUSED = 3;
            }
        """)), "Rules.capped reads no static field of Rules");
  }

  @Test
  void aStateClassExtendingAClassWithoutFieldsKeepsItsFingerprint() {
    String withDetail = withDetail("""
        final class Detail {
          public String note;
        }""");
    assertEquals(fingerprint(withDetail), fingerprint(withDetail.replace("final class Detail {",
        "abstract class Base {}\n\nfinal class Detail extends Base {")), "nothing Jackson writes changed");
  }

  /** The cart with one more component, {@code Detail detail}, its class declared by {@code declarations}. */
  private static String withDetail(String declarations) {
    return CART
        .replace("record Line(String sku, int quantity) {}", "record Line(String sku, int quantity) {}\n\n" + declarations)
        .replace("List<Line> lines, Status status)", "List<Line> lines, Status status, Detail detail)")
        .replace("new Cart(e.id(), List.of(), Status.OPEN)", "new Cart(e.id(), List.of(), Status.OPEN, null)")
        .replace("new Cart(id, all, status)", "new Cart(id, all, status, detail)");
  }

  @Test
  void raisingSnapshotVersionChangesIt() {
    assertNotEquals(RELEASED, changed("events = CartEvent.class)", "events = CartEvent.class, snapshotVersion = 2)"));
  }

  @Test
  void anAddedUpcasterChangesItAndItsBodyDoesNot() {
    String versioned = CART.replace("""
        @EventType("added")
        record Added(String sku, int quantity) implements CartEvent {}""", """
        @EventType(value = "added", version = 2)
        record Added(String sku, int quantity) implements CartEvent {
          @Upcast(from = 1)
          static ObjectNode quantityWasCount(ObjectNode v1) {
            return v1.set("quantity", v1.remove("count"));
          }
        }""");
    String upcasting = fingerprint(versioned);
    assertNotEquals(RELEASED, upcasting);
    assertEquals(upcasting, fingerprint(versioned.replace("v1.remove(\"count\")", "v1.remove(\"n\")")),
        "code outside the aggregate class is covered by snapshotVersion");
  }

  /** The cart with its line a record nested in it, with a method the handler calls and one it does not. */
  private static final String NESTED = CART
      .replace("record Line(String sku, int quantity) {}\n", "")
      .replace("""
          List<CartEvent> add(String sku) {""", """
          record Line(String sku, int quantity) {
            static Line of(Added e) {
              return new Line(e.sku(), Rules.capped(e.quantity()));
            }

            Line doubled() {
              return new Line(sku, quantity * 2);
            }
          }

          static final class Rules {
            static int capped(int quantity) {
              return Math.min(quantity, 10);
            }
          }

          List<CartEvent> add(String sku) {""")
      .replace("return with(new Line(e.sku(), e.quantity()));", "return with(Line.of(e));");

  @Test
  void aChangedMethodOfANestedClassThatAHandlerCallsChangesIt() {
    String nested = fingerprint(NESTED);
    assertNotEquals(nested, fingerprint(NESTED.replace("Math.min(quantity, 10)", "Math.min(quantity, 20)")),
        "a static helper of a nested class, called from a nested record's factory");
    assertNotEquals(nested, fingerprint(NESTED.replace("Rules.capped(e.quantity())", "e.quantity()")),
        "the nested record's factory the handler calls");
    assertEquals(nested, fingerprint(NESTED.replace("quantity * 2", "quantity * 3")),
        "a method of the nested record no handler calls");
  }

  @Test
  void aNestedClassMethodCalledOnAnUnrelatedVariableDoesNotCount() {
    String withAdd = NESTED.replace("Line doubled() {", "Line add(Line line) {\n      return line;\n    }\n\n    Line doubled() {");
    assertEquals(fingerprint(withAdd), fingerprint(withAdd.replace("return line;", "return this;")),
        "all.add(line) is called on a List, not on a Line");
  }

  @Test
  void aChangedConstantOfANestedClassThatReachedCodeReadsChangesIt() {
    String constant = NESTED.replace("static final class Rules {", "static final class Rules {\n    static final int MAX = 10;\n")
        .replace("Math.min(quantity, 10)", "Math.min(quantity, MAX)");
    assertNotEquals(fingerprint(constant), fingerprint(constant.replace("MAX = 10;", "MAX = 20;")),
        "read by the nested class's method the handler reaches");
    String inHandler = constant.replace("return with(Line.of(e));", "return with(new Line(e.sku(), Rules.MAX));");
    assertNotEquals(fingerprint(inHandler), fingerprint(inHandler.replace("MAX = 10;", "MAX = 20;")),
        "read by the handler itself");
  }

  /** The nested cart with {@code nested} declared in it, reached by the handler through {@code apply}'s body. */
  private static String reaching(String apply, String nested) {
    return NESTED.replace("return with(Line.of(e));", apply)
        .replace("List<CartEvent> add(String sku) {", nested + "\n\nList<CartEvent> add(String sku) {");
  }

  @Test
  void aChangedConstantOfANestedEnumWhoseCodeAHandlerReachesChangesIt() {
    String priced = reaching("return with(new Line(e.sku(), Kind.valueOf(e.sku()).price(e.quantity())));", """
          enum Kind {
            STD(5) {
              @Override
              int price(int quantity) {
                Line line = new Line("", quantity);
                return line.quantity() * fee;
              }
            },
            BULK(3) {
              @Override
              int price(int quantity) {
                return quantity * fee / 2;
              }
            };

            final int fee;

            Kind(int fee) {
              this.fee = fee * 10;
            }

            abstract int price(int quantity);
          }""");
    String released = fingerprint(priced);
    assertNotEquals(released, fingerprint(priced.replace("STD(5)", "STD(6)")), "a constant's argument");
    assertNotEquals(released, fingerprint(priced.replace("quantity * fee / 2", "quantity * fee / 3")), "a constant's body");
    assertNotEquals(released, fingerprint(priced.replace("fee * 10", "fee * 20")), "the constructor the constants call");
    String fieldRead = priced.replace("Kind.valueOf(e.sku()).price(e.quantity())", "Kind.valueOf(e.sku()).fee");
    assertNotEquals(fingerprint(fieldRead), fingerprint(fieldRead.replace("STD(5)", "STD(6)")), "a field the constants set");
  }

  @Test
  void reorderedConstantsOfAPlainNestedEnumAHandlerNamesChangeIt() {
    String ordered = reaching("return with(new Line(e.sku(), Pack.values()[e.quantity() % 2].ordinal() + 1));", """
          enum Pack { SINGLE, DOUBLE }""");
    String released = fingerprint(ordered);
    assertNotEquals(released, fingerprint(ordered.replace("SINGLE, DOUBLE", "DOUBLE, SINGLE")), "reordered");
    assertNotEquals(released, fingerprint(ordered.replace("SINGLE, DOUBLE", "SINGLE, DOUBLE, TRIPLE")), "added");
    String byConstant = reaching("return with(new Line(e.sku(), Pack.DOUBLE.compareTo(Pack.SINGLE)));", """
          enum Pack { SINGLE, DOUBLE }""");
    assertNotEquals(fingerprint(byConstant), fingerprint(byConstant.replace("SINGLE, DOUBLE", "DOUBLE, SINGLE")),
        "compared by its constants");
  }

  @Test
  void reorderedConstantsOfAPlainNestedEnumAHandledEventHoldsChangeIt() {
    String held = reaching("return with(new Line(e.sku(), e.pack().ordinal()));", """
          enum Pack { SINGLE, DOUBLE }""")
        .replace("record Added(String sku, int quantity)", "record Added(String sku, int quantity, Cart.Pack pack)")
        .replace("new Added(sku, 1)", "new Added(sku, 1, Pack.SINGLE)");
    assertNotEquals(fingerprint(held), fingerprint(held.replace("SINGLE, DOUBLE", "DOUBLE, SINGLE")));
  }

  @Test
  void reorderedConstantsOfANestedEnumOnlyACommandUsesLeaveTheFingerprintAsItWas() {
    String commanded = NESTED.replace("List<CartEvent> add(String sku) {", """
        enum Pack { SINGLE, DOUBLE }

          List<CartEvent> add(String sku) {
            if (Pack.values()[0] == Pack.DOUBLE) {
              return List.of();
            }""");
    assertEquals(fingerprint(NESTED), fingerprint(commanded));
    assertEquals(fingerprint(commanded), fingerprint(commanded.replace("SINGLE, DOUBLE", "DOUBLE, SINGLE")));
  }

  @Test
  void aChangedInitializerOrSuperclassConstructorOfANestedClassAHandlerCreatesChangesIt() {
    String created = reaching("return with(new Line(e.sku(), new Capped(e.quantity()).quantity));", """
          abstract static class Limited {
            final int limit;

            Limited() {
              limit = 10;
            }
          }

          static final class Capped extends Limited {
            final int floor = 1;
            final int quantity;

            Capped(int quantity) {
              this.quantity = Math.max(floor, Math.min(quantity, limit));
            }
          }""");
    String released = fingerprint(created);
    assertNotEquals(released, fingerprint(created.replace("limit = 10;", "limit = 20;")), "the superclass's constructor");
    assertNotEquals(released, fingerprint(created.replace("floor = 1;", "floor = 2;")), "a field's initializer");
  }

  @Test
  void aNestedMethodReachedThroughAnInterfaceOrAGenericConstructorReferenceChangesIt() {
    String inherited = reaching("Priced priced = Item.make();\n    return with(new Line(e.sku(), priced.price()));", """
          interface Priced {
            int price();
          }

          static class Base {
            public int price() {
              return 5;
            }
          }

          static final class Item extends Base implements Priced {
            static Priced make() {
              return new Item();
            }
          }""");
    assertNotEquals(fingerprint(inherited), fingerprint(inherited.replace("return 5;", "return 6;")),
        "Base.price, called through Priced, which Base does not implement but its subclass does");
    String referenced = reaching(
        "return with(java.util.Optional.of(e).map(Box<Added>::new).map(box -> box.line).orElseThrow());", """
          static final class Box<T extends Added> {
            final Line line;

            Box(T added) {
              line = new Line(added.sku(), added.quantity());
            }
          }""");
    assertNotEquals(fingerprint(referenced), fingerprint(referenced.replace("added.quantity())", "added.quantity() + 1)")),
        "the constructor Box<Added>::new refers to");
  }
}
