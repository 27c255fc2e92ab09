package dev.esgen.processor;

import com.sun.source.util.Trees;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Set;
import javax.annotation.processing.ProcessingEnvironment;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.TypeElement;
import javax.lang.model.util.Elements;
import javax.lang.model.util.Types;

/**
 * Computes the fingerprint a snapshot is stored with: a hash of what decides the stored state, so that a
 * snapshot written by other code is recognised and rebuilt from the events.
 *
 * <ul>
 *   <li>the <b>state shape</b> ({@link StateShape}): the aggregate's components (or a class's instance
 *       fields, inherited ones included) with their full types and Jackson annotations, and recursively
 *       those of the records, classes, enums and sealed types they use, except the JDK's, with the
 *       Jackson annotations on the types themselves and on enum constants, and the domain's types behind
 *       wildcards;</li>
 *   <li>the <b>handler code</b> ({@link ReachedCode}): the source of the creating and {@code apply}
 *       methods and of every method and constructor of the aggregate and of the classes nested in it
 *       that they call, directly or not, and the declarations of the static fields of the aggregate and
 *       its nested classes they read (with what those initializers use, and the static initializer
 *       blocks of their classes), and what creating the objects they create of a class aggregate or a
 *       nested class runs besides (instance initializers, a nested enum's constants, a nested
 *       superclass's constructors), with comments and layout removed ({@link DeclarationText}; under
 *       another compiler than javac, their signatures only), and the order of the constants of the
 *       nested enums they name or the handled events hold;</li>
 *   <li>the upcasters' signatures (which stored type and version they read, what they return), and
 *       {@code @Aggregate(snapshotVersion)}.</li>
 * </ul>
 *
 * Code outside the aggregate and its nested classes is not in it (not even a class beside it in its
 * file): the fingerprint must be the same whether a build compiles every file or, incrementally, only
 * the aggregate's, and only the aggregate's own source is certain to be at hand. {@code snapshotVersion}
 * covers the rest.
 *
 * <p>Each part is appended only where there is something to append, and after what earlier releases
 * hashed, so that an aggregate using nothing a release adds keeps its fingerprint.
 */
final class SnapshotFingerprinter {

  /** Names the scheme, so that a later change of what is hashed makes every older fingerprint stale. */
  private static final String SCHEME = "esgen-snapshot-fingerprint-1";

  private final Elements elements;
  private final Trees trees;
  private final Types types;
  private final DeclarationText text;

  SnapshotFingerprinter(ProcessingEnvironment environment) {
    this.elements = environment.getElementUtils();
    this.trees = treesOf(environment);
    this.types = environment.getTypeUtils();
    this.text = new DeclarationText(trees);
  }

  /** javac's trees of {@code environment}, or null under another compiler. */
  static Trees treesOf(ProcessingEnvironment environment) {
    try {
      return Trees.instance(environment);
    } catch (IllegalArgumentException notJavac) {
      // Eclipse's compiler, for one: the handlers are fingerprinted by their signatures only.
      return null;
    }
  }

  /**
   * The fingerprint of {@code aggregate}: 11 characters of URL-safe Base64, 64 bits of a SHA-256.
   *
   * @param handlers the creating method, then the {@code apply} handlers, in declaration order
   * @param upcasters every upcaster of the aggregate's events
   */
  String fingerprint(TypeElement aggregate, List<ExecutableElement> handlers, List<ExecutableElement> upcasters,
      int snapshotVersion) {
    StringBuilder described = new StringBuilder(SCHEME).append("\nshape ");
    StateShape shape = StateShape.write(types, aggregate, described);
    AggregateDeclarations declarations = AggregateDeclarations.of(aggregate, trees, elements);
    ReachedCode reached = ReachedCode.from(handlers, declarations, elements, new CallMatcher(trees, types, declarations));
    describeCode(reached, declarations, described);
    describeEnumOrders(reached, declarations, shape, StateShape.typesHeldByEvents(types, aggregate, handlers),
        described);
    for (ExecutableElement upcaster : upcasters) {
      described.append("\nupcast ").append(DeclarationText.signature(upcaster));
      upcaster.getAnnotationMirrors().forEach(annotation -> described.append(' ').append(annotation));
    }
    described.append("\nsnapshotVersion ").append(snapshotVersion);
    return hash(described.toString());
  }

  /** Appends the source of the code the handlers reach, part by part. */
  private void describeCode(ReachedCode reached, AggregateDeclarations declarations, StringBuilder described) {
    for (ExecutableElement method : reached.methods()) {
      described.append("\ncode ").append(text.of(method, declarations.declarationOf(method)));
    }
    // What creating the objects of a class aggregate or a nested class runs besides its constructors, only for
    // those the code creates.
    declarations.creationInitializers().forEach((type, initializers) -> {
      if (reached.creates(type)) {
        initializers.forEach(initializer -> described.append("\ninit ").append(text.of(initializer)));
      }
    });
    // The static fields the code reads (a constant a handler adds), the aggregate's and its nested classes',
    // after the code and only when it reads any, so that the fingerprints of all other aggregates stay as
    // they were.
    declarations.staticFields().forEach((key, field) -> {
      if (reached.reads(key)) {
        described.append("\nstatic ").append(text.of(field.path()));
      }
    });
    // A static initializer block may set what those fields hold: those of each class whose fields the code reads.
    Set<TypeElement> initialized = reached.classesOfStaticsRead();
    declarations.staticBlocks().forEach((owner, blocks) -> {
      if (initialized.contains(owner)) {
        blocks.forEach(block -> described.append("\nstatic-block ").append(text.of(block)));
      }
    });
  }

  /**
   * Appends the constants' order of each nested enum the code names or a handled event holds ({@code
   * heldByEvents}): its ordinals, {@code values()} and {@code compareTo} follow it. Not for one whose
   * order is written already: in the state's shape, or as the constants' source where the code creates
   * the enum's objects.
   */
  private static void describeEnumOrders(ReachedCode reached, AggregateDeclarations declarations, StateShape shape,
      Set<String> heldByEvents, StringBuilder described) {
    for (TypeElement nested : declarations.nestedEnums()) {
      String name = nested.getQualifiedName().toString();
      if ((reached.names(nested) || heldByEvents.contains(name)) && !shape.spellsOut(name) && !reached.creates(nested)) {
        described.append("\nenum-order ").append(name).append(' ');
        AggregateDeclarations.constants(nested).forEach(constant -> described.append(constant.getSimpleName()).append(','));
      }
    }
  }

  private static String hash(String described) {
    try {
      byte[] digest = MessageDigest.getInstance("SHA-256").digest(described.getBytes(StandardCharsets.UTF_8));
      return Base64.getUrlEncoder().withoutPadding().encodeToString(Arrays.copyOf(digest, 8));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java platform has SHA-256", e);
    }
  }
}
