package dev.esgen.processor;

import com.palantir.javapoet.ClassName;
import java.util.List;
import javax.lang.model.element.TypeElement;

/**
 * Everything the generators need to know about one valid aggregate, resolved and checked.
 *
 * @param element the {@code @Aggregate} type, the originating element of every generated file
 * @param type the aggregate type
 * @param name the stored aggregate name, such as {@code "bank-account"}
 * @param eventsType the sealed root of the aggregate's events
 * @param events the concrete events (leaves of the sealed hierarchy) in declaration order
 * @param creator the static method that builds the aggregate from its first event
 * @param handlers the {@code apply} handlers in declaration order
 * @param id how the id is read and converted
 * @param columns the {@code @Indexed} and {@code @Unique} columns in declaration order
 * @param options the storage options of {@code @Aggregate}
 * @param componentModel the dependency-injection annotations the repository carries
 * @param evolution how events and snapshots stored by older code are read
 * @param suppressedWarnings the deprecation warnings each generated class suppresses
 * @param publicRepository whether the generated repositories are public, as the aggregate is (it and the
 *     types it is nested in); else they are package-private like it
 */
record AggregateModel(
    TypeElement element,
    ClassName type,
    String name,
    ClassName eventsType,
    List<EventModel> events,
    CreatorModel creator,
    List<HandlerModel> handlers,
    IdModel id,
    List<ColumnModel> columns,
    AggregateOptions options,
    ComponentModel componentModel,
    EvolutionModel evolution,
    DeprecatedUses.SuppressedWarnings suppressedWarnings,
    boolean publicRepository) {

  public AggregateModel {
    events = List.copyOf(events);
    handlers = List.copyOf(handlers);
    columns = List.copyOf(columns);
  }

  /**
   * The name of a generated top-level type, such as {@code BankAccountRepository} (see
   * {@link GeneratedTypes#simpleName}).
   */
  public ClassName generated(String suffix) {
    return ClassName.get(type.packageName(), GeneratedTypes.simpleName(type, suffix));
  }

  /** The name of a class generated inside the repository, such as {@code BankAccountRepository.Keys}. */
  public ClassName nested(String simpleName) {
    return generated("Repository").nestedClass(simpleName);
  }

  /** The events a stream may not continue with because only the creating method takes them. */
  public List<EventModel> creatingOnlyEvents() {
    return events.stream().filter(e -> !e.applied()).toList();
  }
}
