package dev.esgen.processor;

import static com.google.testing.compile.CompilationSubject.assertThat;
import static com.google.testing.compile.Compiler.javac;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.google.testing.compile.Compilation;
import com.google.testing.compile.JavaFileObjects;
import java.util.List;
import javax.tools.Diagnostic;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.Test;

/**
 * Unusual inputs: valid ones the docs allow, which must compile without warnings and behave, and invalid
 * ones, which must be one esgen error on the element at fault rather than an error in generated code.
 */
class UnusualInputTest {

  private static Compilation compile(JavaFileObject... sources) {
    return javac().withProcessors(new EsgenProcessor())
        .withOptions("-Xlint:all,-processing,-auxiliaryclass", "-Werror")
        .compile(sources);
  }

  /** A class aggregate {@code Gadget} with {@code fields} and {@code getters} besides its id. */
  private static JavaFileObject gadget(String fields, String getters) {
    return JavaFileObjects.forSourceString("fixture.Gadget", """
        package fixture;

        import dev.esgen.annotations.Aggregate;
        import dev.esgen.annotations.AggregateId;
        import dev.esgen.annotations.DomainEvents;

        @DomainEvents
        sealed interface GadgetEvent permits GadgetMade {}

        record GadgetMade(String id) implements GadgetEvent {}

        @Aggregate(name = "gadget", events = GadgetEvent.class)
        final class Gadget {
          @AggregateId private String id;
        %s
          public Gadget() {}

          public String getId() {
            return id;
          }
        %s
          static Gadget make(GadgetMade e) {
            Gadget gadget = new Gadget();
            gadget.id = e.id();
            return gadget;
          }
        }
        """.formatted(fields, getters));
  }

  /**
   * Jackson names the property of {@code getXCoord()} {@code xcoord}: it lower-cases the whole leading run
   * of capitals. A private {@code xCoord} is therefore written as "xcoord" and never read back, which is
   * what field-invisible-to-jackson exists to catch.
   */
  @Test
  void aFieldWhoseGetterJacksonNamesOtherwiseIsInvisible() {
    Compilation compilation = compile(gadget("  private String xCoord;", """
          public String getXCoord() {
            return xCoord;
          }
        """));
    assertThat(compilation).hadErrorContaining(
        "[esgen:field-invisible-to-jackson] Jackson cannot see field xCoord of Gadget");
    // the getter to add is one Jackson links to the field
    assertThat(compilation).hadErrorContaining("add \"public java.lang.String getxCoord()\"");
  }

  /** Jackson reads {@code aB} through {@code getaB()} (what IDEs generate for it); nothing is lost. */
  @Test
  void aFieldWithTheGetterJacksonLinksToItIsVisible() {
    Compilation compilation = compile(gadget("  private String aB;", """
          public String getaB() {
            return aB;
          }
        """));
    assertThat(compilation).succeededWithoutWarnings();
  }

  /** Jackson 2.19 takes {@code Boolean isOpen()} for the getter of {@code open}, as it does {@code boolean isOpen()}. */
  @Test
  void aBoxedBooleanReadThroughIsXIsVisible() {
    Compilation compilation = compile(gadget("  private Boolean open;", """
          public Boolean isOpen() {
            return open;
          }
        """));
    assertThat(compilation).succeededWithoutWarnings();
  }

  /** The generated code reads an indexed Boolean through the same isX() Jackson does. */
  @Test
  void anIndexedBoxedBooleanIsReadThroughIsX() {
    Compilation compilation = compile(gadget("  @dev.esgen.annotations.Indexed private Boolean open;", """
          public Boolean isOpen() {
            return open;
          }
        """));
    assertThat(compilation).succeededWithoutWarnings();
    assertThat(compilation).generatedSourceFile("fixture.GadgetRepository").contentsAsUtf8String()
        .contains("encodeOpen(state.isOpen())");
  }

  /**
   * No getter gives Jackson the property {@code URL} ({@code getURL()} gives "url"), so the message must not
   * suggest adding the getter the class already has.
   */
  @Test
  void aFieldNoGetterCanNameIsNotToldToAddOne() {
    Compilation compilation = compile(gadget("  private String URL;", """
          public String getURL() {
            return URL;
          }
        """));
    assertThat(compilation).hadErrorContaining(
        "[esgen:field-invisible-to-jackson] Jackson cannot see field URL of Gadget");
    for (Diagnostic<? extends JavaFileObject> error : compilation.errors()) {
      assertEquals(-1, error.getMessage(null).indexOf("getURL()"), error.getMessage(null));
    }
  }

  private static JavaFileObject holding(String components) {
    return JavaFileObjects.forSourceString("fixture.Shelf", """
        package fixture;

        import dev.esgen.annotations.Aggregate;
        import dev.esgen.annotations.AggregateId;
        import dev.esgen.annotations.DomainEvents;

        @DomainEvents
        sealed interface ShelfEvent permits ShelfBuilt, ShelfFilled {}

        record ShelfBuilt(String id) implements ShelfEvent {}

        record ShelfFilled(%s) implements ShelfEvent {}

        @Aggregate(name = "shelf", events = ShelfEvent.class)
        record Shelf(@AggregateId String id) {
          static Shelf build(ShelfBuilt e) {
            return new Shelf(e.id());
          }

          Shelf apply(ShelfFilled e) {
            return this;
          }
        }
        """.formatted(components));
  }

  /**
   * Jackson writes a BlockingQueue but cannot read one back ("Cannot construct instance of
   * java.util.concurrent.BlockingQueue"): the stored event would make its stream unreadable. Refused like
   * any other abstract JDK type Jackson does not read.
   */
  @Test
  void abstractJdkCollectionsJacksonCannotBuildAreRefused() {
    for (String type : List.of("java.util.concurrent.BlockingQueue<String>", "java.util.concurrent.BlockingDeque<String>",
        "java.util.concurrent.TransferQueue<String>", "java.util.AbstractQueue<String>",
        "java.util.AbstractCollection<String>", "java.util.AbstractSequentialList<String>",
        "java.util.Map<String, java.util.concurrent.BlockingQueue<String>>")) {
      Compilation compilation = compile(holding(type + " items"));
      assertThat(compilation).hadErrorContaining("[esgen:json-abstract-type] component items of event ShelfFilled");
    }
  }

  /** Jackson reads a Map.Entry back (its MapEntryDeserializer): refusing it refuses what works. */
  @Test
  void aMapEntryIsAccepted() {
    Compilation compilation = compile(holding("java.util.Map.Entry<String, Integer> entry, Iterable<String> names"));
    assertThat(compilation).succeededWithoutWarnings();
  }

  /**
   * A sealed level only its own package sees, between a public root and public events, with the aggregate
   * in another package: no handler names the level, so neither does the generated code.
   */
  @Test
  void aPackagePrivateSealedLevelNoHandlerNamesMayStayInTheEventsPackage() {
    Compilation compilation = compile(
        JavaFileObjects.forSourceString("events.NoteEvent", """
            package events;

            @dev.esgen.annotations.DomainEvents
            public sealed interface NoteEvent permits NoteOpened, NoteEdit {
              String text();
            }
            """),
        JavaFileObjects.forSourceString("events.NoteEdit", """
            package events;

            sealed interface NoteEdit extends NoteEvent permits NoteRenamed, NoteMoved {}
            """),
        JavaFileObjects.forSourceString("events.NoteOpened", """
            package events;

            public record NoteOpened(String id, String text) implements NoteEvent {}
            """),
        JavaFileObjects.forSourceString("events.NoteRenamed", """
            package events;

            public record NoteRenamed(String text) implements NoteEdit {}
            """),
        JavaFileObjects.forSourceString("events.NoteMoved", """
            package events;

            public record NoteMoved(String text) implements NoteEdit {}
            """),
        JavaFileObjects.forSourceString("notes.Note", """
            package notes;

            import dev.esgen.annotations.Aggregate;
            import dev.esgen.annotations.AggregateId;
            import events.NoteEvent;
            import events.NoteOpened;

            @Aggregate(name = "note", events = NoteEvent.class)
            public record Note(@AggregateId String id, String text) {
              static Note open(NoteOpened e) {
                return new Note(e.id(), e.text());
              }

              Note apply(NoteEvent e) {
                return new Note(id, e.text());
              }
            }
            """));
    assertThat(compilation).succeededWithoutWarnings();
    assertThat(compilation).generatedSourceFile("notes.NoteRepository").isNotNull();
  }

  /**
   * A record aggregate validating in its compact constructor, whose handler calls {@code add} on a list
   * while the aggregate has an {@code add} command of its own: the most ordinary of aggregates. The
   * fingerprint's call resolution must not attribute the class while processors run: javac inserts the
   * implicit super() into the compact constructor, keeps it into the next round, and then reports
   * "invalid canonical constructor in record Cart (canonical constructor must not contain explicit
   * constructor invocation)" on code that is fine.
   */
  @Test
  void aCompactConstructorSurvivesAHandlerCallingALibraryMethodNamedLikeACommand() {
    Compilation compilation = compile(JavaFileObjects.forSourceString("fixture.Cart", """
        package fixture;

        import dev.esgen.annotations.Aggregate;
        import dev.esgen.annotations.AggregateId;
        import dev.esgen.annotations.DomainEvents;
        import java.util.ArrayList;
        import java.util.List;
        import java.util.Objects;

        @DomainEvents
        sealed interface CartEvent permits CartOpened, ItemAdded {}

        record CartOpened(String id) implements CartEvent {}

        record ItemAdded(String item) implements CartEvent {}

        @Aggregate(name = "cart", events = CartEvent.class)
        record Cart(@AggregateId String id, List<String> items) {
          Cart {
            Objects.requireNonNull(id, "id");
            items = List.copyOf(items);
          }

          static Cart open(CartOpened e) {
            return new Cart(e.id(), List.of());
          }

          Cart apply(ItemAdded e) {
            List<String> copy = new ArrayList<>(items);
            copy.add(e.item());
            return new Cart(id, copy);
          }

          List<CartEvent> add(String item) {
            return List.of(new ItemAdded(item));
          }
        }
        """));
    assertThat(compilation).succeededWithoutWarnings();
  }

  /** The replay's reasons read "an order stream", not "a order stream". */
  @Test
  void theReplaysReasonsTakeTheArticleTheAggregatesNameNeeds() {
    Compilation compilation = compile(JavaFileObjects.forSourceString("fixture.Order", """
        package fixture;

        import dev.esgen.annotations.Aggregate;
        import dev.esgen.annotations.AggregateId;
        import dev.esgen.annotations.DomainEvents;

        @DomainEvents
        sealed interface OrderEvent permits OrderPlaced, OrderShipped {}

        record OrderPlaced(String id) implements OrderEvent {}

        record OrderShipped() implements OrderEvent {}

        @Aggregate(name = "order", events = OrderEvent.class)
        record Order(@AggregateId String id, boolean shipped) {
          static Order place(OrderPlaced e) {
            return new Order(e.id(), false);
          }

          Order apply(OrderShipped e) {
            return new Order(id, true);
          }
        }
        """));
    assertThat(compilation).succeededWithoutWarnings();
    assertThat(compilation)
        .generatedSourceFile("fixture.OrderRepository")
        .contentsAsUtf8String()
        .contains("\"only OrderPlaced can start an order stream\"");
    assertThat(compilation)
        .generatedSourceFile("fixture.OrderRepository")
        .contentsAsUtf8String()
        .contains("OrderPlaced can only start an order stream\"");
  }

  /**
   * An aggregate named like a class nested in its repository is written qualified there ({@code shop.Replay}),
   * and the replay's variable for a creating event {@code Shop} is {@code shop}: the variable must not take
   * the name the qualified aggregate starts with, or {@code shop.Replay.open(shop)} means the event's member.
   */
  @Test
  void theCreatingEventsVariableDoesNotHideTheAggregatesQualifiedName() {
    Compilation compilation = compile(JavaFileObjects.forSourceString("shop.Replay", """
        package shop;

        import dev.esgen.annotations.Aggregate;
        import dev.esgen.annotations.AggregateId;
        import dev.esgen.annotations.DomainEvents;

        @Aggregate(name = "replay", events = Replay.ReplayEvent.class)
        public record Replay(@AggregateId String id) {
          @DomainEvents
          public sealed interface ReplayEvent permits Shop, Replayed {}

          public record Shop(String id) implements ReplayEvent {}

          public record Replayed() implements ReplayEvent {}

          static Replay open(Shop e) {
            return new Replay(e.id());
          }

          Replay apply(Replayed e) {
            return this;
          }
        }
        """));
    assertThat(compilation).succeededWithoutWarnings();
    assertThat(compilation).generatedSourceFile("shop.ReplayRepository").contentsAsUtf8String()
        .contains("return shop.Replay.open(shop_);");
  }

  /**
   * A user's own package may begin with {@code javax.} or {@code jdk.}: an events root compiled with the
   * aggregate there is no JDK type, and annotating and sealing it, as it is, is all it takes.
   */
  @Test
  void anEventsRootOfTheUsersOwnInAJavaxPackageIsNoJdkType() {
    Compilation compilation = compile(JavaFileObjects.forSourceString("javax.shop.Cart", """
        package javax.shop;

        import dev.esgen.annotations.Aggregate;
        import dev.esgen.annotations.AggregateId;
        import dev.esgen.annotations.DomainEvents;

        @Aggregate(name = "cart", events = Cart.CartEvent.class)
        public record Cart(@AggregateId String id, int items) {
          @DomainEvents
          public sealed interface CartEvent permits Opened, ItemAdded {}

          public record Opened(String id) implements CartEvent {}

          public record ItemAdded() implements CartEvent {}

          static Cart open(Opened e) {
            return new Cart(e.id(), 0);
          }

          Cart apply(ItemAdded e) {
            return new Cart(id, items + 1);
          }
        }
        """));
    assertThat(compilation).succeededWithoutWarnings();
    assertThat(compilation).generatedSourceFile("javax.shop.CartRepository").isNotNull();
  }

  /** The declaration the error suggests for a nested type is one Java accepts: no "record Outer.Inner(...)". */
  @Test
  void theDeclarationSuggestedForANestedNonRecordIsValidJava() {
    Compilation compilation = compile(JavaFileObjects.forSourceString("fixture.Domain", """
        package fixture;

        import dev.esgen.annotations.Aggregate;
        import dev.esgen.annotations.DomainEvents;

        final class Domain {
          @DomainEvents
          sealed interface LampEvent permits LampLit {}

          record LampLit(String id) implements LampEvent {}

          @Aggregate(name = "lamp", events = LampEvent.class)
          enum Lamp {
            ON;

            static Lamp light(LampLit e) {
              return ON;
            }
          }
        }
        """));
    assertThat(compilation).hadErrorContaining(
        "[esgen:aggregate-kind] @Aggregate Domain.Lamp is an enum: an aggregate must be a record or a final class;"
            + " declare it as \"public record Lamp(...)\"");
  }

  /**
   * An event named like a class nested in the repository is written qualified there ({@code json.Keys}), its
   * upcaster's call too: the codec's JSON local must not take the name of the package, or
   * {@code json.Keys.up(json)} looks for {@code Keys} in the local.
   */
  @Test
  void theCodecsLocalsDoNotHideThePackageAnUpcasterIsWrittenWith() {
    Compilation compilation = compile(
        JavaFileObjects.forSourceString("json.Doc", """
            package json;

            import dev.esgen.annotations.Aggregate;
            import dev.esgen.annotations.AggregateId;

            @Aggregate(name = "doc", events = DocEvent.class)
            public record Doc(@AggregateId String id) {
              static Doc open(Keys e) {
                return new Doc(e.id());
              }

              Doc apply(DocMoved e) {
                return this;
              }
            }
            """),
        JavaFileObjects.forSourceString("json.DocEvent", """
            package json;

            @dev.esgen.annotations.DomainEvents
            public sealed interface DocEvent permits Keys, DocMoved {}
            """),
        JavaFileObjects.forSourceString("json.DocMoved", """
            package json;

            public record DocMoved() implements DocEvent {}
            """),
        JavaFileObjects.forSourceString("json.Keys", """
            package json;

            import com.fasterxml.jackson.databind.node.ObjectNode;
            import dev.esgen.annotations.EventType;
            import dev.esgen.annotations.Upcast;

            @EventType(value = "keys", version = 2)
            public record Keys(String id) implements DocEvent {
              @Upcast(from = 1)
              static ObjectNode idWasKey(ObjectNode v1) {
                return v1.set("id", v1.remove("key"));
              }
            }
            """));
    assertThat(compilation).succeededWithoutWarnings();
    assertThat(compilation).generatedSourceFile("json.DocRepository").contentsAsUtf8String()
        .contains("json_ = json.Keys.idWasKey(json_);");
  }
}
