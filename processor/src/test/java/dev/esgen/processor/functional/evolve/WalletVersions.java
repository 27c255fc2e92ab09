package dev.esgen.processor.functional.evolve;

/** The wallet domain as it was released, three times, and a fourth time with only a handler changed. */
final class WalletVersions {

  private WalletVersions() {}

  private static final String DRIVER = """

      public final class WalletDriverImpl implements dev.esgen.processor.functional.evolve.WalletDriver {
        private WalletRepository wallets;

        public WalletDriverImpl() {}

        @Override
        public void init(software.amazon.awssdk.services.dynamodb.DynamoDbClient client,
            dev.esgen.runtime.config.StoreConfig config, boolean tip) {
          var store = dev.esgen.runtime.DynamoDbEventStore.create(client, config);
          var definition = WalletRepository.definition(dev.esgen.runtime.codec.EsgenJson.newObjectMapper());
          if (tip) {
            definition = definition.withLayout(dev.esgen.runtime.aggregate.LayoutKind.TIP,
                new dev.esgen.runtime.aggregate.TipPolicy(dev.esgen.runtime.aggregate.TipPolicy.DEFAULT_MAX_BYTES, 2, true));
          }
          new dev.esgen.runtime.provision.TableProvisioner(client, config).createTablesIfMissing(definition);
          wallets = WalletRepository.withDefinition(store, definition);
        }

        @Override
        public dev.esgen.runtime.aggregate.AggregateDefinition<?, ?, ?> definition() {
          return wallets.definition();
        }

        @Override
        public long create(String id, String owner) {
          return wallets.create(new Opened(id, owner)).seqNr();
        }

        @Override
        public long act(String id, String... commands) {
          return wallets.transact(id, state -> {
            List<WalletEvent> events = new ArrayList<>();
            for (String command : commands) {
              String[] parts = command.split(":", 2);
              events.add(event(parts[0], parts[1]));
            }
            return events;
          }).seqNr();
        }

        @Override
        public String load(String id) {
          return wallets.load(id).toString();
        }

        @Override
        public List<String> history(String id, long from) {
          try (var events = wallets.events(id, from)) {
            return events.map(e -> e.seqNr() + " " + e.eventType() + " " + e.event()).toList();
          }
        }

        @Override
        public String fingerprint() {
          return WalletRepository.SnapshotCodec.FINGERPRINT;
        }
      """;

  /** Version 1: amounts in whole euros, tags, notes, and an event whose body holds a secret. */
  static final String V1 = """
      package evo;

      import dev.esgen.annotations.Aggregate;
      import dev.esgen.annotations.AggregateId;
      import dev.esgen.annotations.DomainEvents;
      import dev.esgen.annotations.EventType;
      import java.util.ArrayList;
      import java.util.List;

      @DomainEvents
      sealed interface WalletEvent permits Opened, Credited, Tagged, Noted, Poisoned {}

      @EventType("opened")
      record Opened(String id, String owner) implements WalletEvent {}

      @EventType("credited")
      record Credited(long amount) implements WalletEvent {}

      @EventType("tagged")
      record Tagged(String tag) implements WalletEvent {}

      @EventType("noted")
      record Noted(String text) implements WalletEvent {}

      @EventType("poisoned")
      record Poisoned(String secret) implements WalletEvent {}

      @Aggregate(name = "wallet", events = WalletEvent.class, snapshotEvery = 2, snapshotsToKeep = 2)
      record Wallet(@AggregateId String id, String owner, long balance, List<String> tags) {
        static Wallet open(Opened e) {
          return new Wallet(e.id(), e.owner(), 0, List.of());
        }

        Wallet apply(Credited e) {
          return new Wallet(id, owner, balance + e.amount() * 100, tags);
        }

        Wallet apply(Tagged e) {
          return new Wallet(id, owner, balance, plus(e.tag()));
        }

        Wallet apply(Noted e) {
          return this;
        }

        Wallet apply(Poisoned e) {
          return this;
        }

        List<String> plus(String tag) {
          List<String> all = new ArrayList<>(tags);
          all.add(tag);
          return List.copyOf(all);
        }
      }
      """ + DRIVER + """
        static WalletEvent event(String kind, String arg) {
          return switch (kind) {
            case "credit" -> new Credited(Long.parseLong(arg));
            case "tag" -> new Tagged(arg);
            case "note" -> new Noted(arg);
            case "poison" -> new Poisoned(arg);
            default -> throw new IllegalArgumentException(kind);
          };
        }
      }
      """;

  /** Version 2: cents (version 2), "tagged" renamed "labelled", the state counts credits. */
  static final String V2 = """
      package evo;

      import com.fasterxml.jackson.databind.node.ObjectNode;
      import dev.esgen.annotations.Aggregate;
      import dev.esgen.annotations.AggregateId;
      import dev.esgen.annotations.DomainEvents;
      import dev.esgen.annotations.EventType;
      import dev.esgen.annotations.Upcast;
      import java.util.ArrayList;
      import java.util.List;

      @DomainEvents
      sealed interface WalletEvent permits Opened, Credited, Labelled, Noted, Poisoned {}

      @EventType("opened")
      record Opened(String id, String owner) implements WalletEvent {}

      @EventType(value = "credited", version = 2)
      record Credited(long cents) implements WalletEvent {
        @Upcast(from = 1)
        static ObjectNode centsFromEuros(ObjectNode v1) {
          return v1.put("cents", v1.remove("amount").asLong() * 100);
        }
      }

      @EventType(value = "labelled", aliases = "tagged")
      record Labelled(String tag) implements WalletEvent {}

      @EventType("noted")
      record Noted(String text) implements WalletEvent {}

      @EventType("poisoned")
      record Poisoned(String secret) implements WalletEvent {}

      @Aggregate(name = "wallet", events = WalletEvent.class, snapshotEvery = 2, snapshotsToKeep = 2)
      record Wallet(@AggregateId String id, String owner, long balance, List<String> tags, int credits) {
        static Wallet open(Opened e) {
          return new Wallet(e.id(), e.owner(), 0, List.of(), 0);
        }

        Wallet apply(Credited e) {
          return new Wallet(id, owner, balance + e.cents(), tags, credits + 1);
        }

        Wallet apply(Labelled e) {
          return new Wallet(id, owner, balance, plus(e.tag()), credits);
        }

        Wallet apply(Noted e) {
          return this;
        }

        Wallet apply(Poisoned e) {
          return this;
        }

        List<String> plus(String tag) {
          List<String> all = new ArrayList<>(tags);
          all.add(tag);
          return List.copyOf(all);
        }
      }
      """ + DRIVER + """
        static WalletEvent event(String kind, String arg) {
          return switch (kind) {
            case "credit" -> new Credited(Long.parseLong(arg));
            case "tag" -> new Labelled(arg);
            case "note" -> new Noted(arg);
            case "poison" -> new Poisoned(arg);
            default -> throw new IllegalArgumentException(kind);
          };
        }
      }
      """;

  /**
   * Version 3: credits carry a currency (version 3); notes are retired and read as two labels each;
   * "poisoned" is retired with an upcaster that throws quoting the body; the state renames owner to
   * holder, drops credits and gains a currency.
   */
  static final String V3 = """
      package evo;

      import com.fasterxml.jackson.databind.node.ObjectNode;
      import dev.esgen.annotations.Aggregate;
      import dev.esgen.annotations.AggregateId;
      import dev.esgen.annotations.DomainEvents;
      import dev.esgen.annotations.EventType;
      import dev.esgen.annotations.Upcast;
      import java.util.ArrayList;
      import java.util.List;

      @DomainEvents(upcasters = WalletUpcasters.class)
      sealed interface WalletEvent permits Opened, Credited, Labelled {}

      @EventType("opened")
      record Opened(String id, String owner) implements WalletEvent {}

      @EventType(value = "credited", version = 3)
      record Credited(long cents, String currency) implements WalletEvent {
        @Upcast(from = 1)
        static ObjectNode centsFromEuros(ObjectNode v1) {
          return v1.put("cents", v1.remove("amount").asLong() * 100);
        }

        @Upcast(from = 2)
        static ObjectNode allWereEuros(ObjectNode v2) {
          return v2.put("currency", "EUR");
        }
      }

      @EventType(value = "labelled", aliases = "tagged")
      record Labelled(String tag) implements WalletEvent {}

      final class WalletUpcasters {
        @Upcast(type = "noted", from = 1)
        static List<WalletEvent> noteIsTwoLabels(ObjectNode v1) {
          return List.of(new Labelled(v1.get("text").asText()), new Labelled(v1.get("text").asText() + "!"));
        }

        @Upcast(type = "poisoned", from = 1)
        static List<WalletEvent> poisonedCannotBeRead(ObjectNode v1) {
          throw new IllegalArgumentException("cannot read " + v1);
        }
      }

      @Aggregate(name = "wallet", events = WalletEvent.class, snapshotEvery = 2, snapshotsToKeep = 2)
      record Wallet(@AggregateId String id, String holder, long balance, List<String> tags, String currency) {
        static Wallet open(Opened e) {
          return new Wallet(e.id(), e.owner(), 0, List.of(), "EUR");
        }

        Wallet apply(Credited e) {
          return new Wallet(id, holder, balance + e.cents(), tags, e.currency());
        }

        Wallet apply(Labelled e) {
          return new Wallet(id, holder, balance, plus(e.tag()), currency);
        }

        List<String> plus(String tag) {
          List<String> all = new ArrayList<>(tags);
          all.add(tag);
          return List.copyOf(all);
        }
      }
      """ + DRIVER + """
        static WalletEvent event(String kind, String arg) {
          return switch (kind) {
            case "credit" -> new Credited(Long.parseLong(arg), "CHF");
            case "tag" -> new Labelled(arg);
            default -> throw new IllegalArgumentException(kind);
          };
        }
      }
      """;

  /** Version 3 reading each note as a second opening, which only a stream's first event may be. */
  static final String V3_REOPEN = V3.replace(
      "return List.of(new Labelled(v1.get(\"text\").asText()), new Labelled(v1.get(\"text\").asText() + \"!\"));",
      "return List.of(new Opened(\"x\", v1.get(\"text\").asText()));");

  /** Version 3 with one handler fixed (labels upper-cased), nothing else. */
  static final String V3_HANDLER = V3.replace("plus(e.tag())", "plus(e.tag().toUpperCase())");
}
