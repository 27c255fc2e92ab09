package dev.esgen.bench.e2e;

import dev.esgen.bench.measure.Meter;

/**
 * One contender of the end-to-end comparison: esgen's generated repository, or the floor issuing the
 * same DynamoDB requests with the bare SDK. Each call works on a {@link Fixture} prepared beforehand.
 */
public interface Side {

  /** "esgen" or "floor". */
  String name();

  /** The meter on this side's client. */
  Meter meter();

  /** Starts the fixture's stream (which does not exist yet) with its creating event. */
  void create(Fixture stream);

  /** Appends {@code events} small events to the fixture's stream, which is at version 1. */
  void append(Fixture stream, int events);

  /** Loads the fixture's stream to its current state. */
  void load(Fixture stream);

  /** Load, decide one small event, append: the command path. */
  void transact(Fixture stream);

  /** Finds the fixture's cart by its {@code @Unique} code: reservation, then the cart. */
  void loadByUnique(Fixture stream);

  /** Lists the first page ({@link Fixture#LOOKUP_GROUP}) of carts with the fixture's {@code @Indexed} owner. */
  void listByIndexed(Fixture stream);

  /** Loads the fixture's group of {@link Fixture#LOOKUP_GROUP} carts by id. */
  void findAll(Fixture stream);
}
