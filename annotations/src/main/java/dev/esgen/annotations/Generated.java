package dev.esgen.annotations;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a class the esgen processor generated; you never write it yourself.
 *
 * <p>It stands where generated code usually carries {@code javax.annotation.processing.Generated}. That
 * one lives in the JDK module {@code java.compiler}, which a named module would have to require just for
 * generated code; this one lives beside the annotations the aggregate already uses. Like the JDK's, it is
 * kept in the source only: class files do not change. Unlike the JDK's it is not {@code @Documented}:
 * the Javadoc of every generated class already says that esgen generated it.
 *
 * <pre>{@code
 * @Generated("dev.esgen.processor.EsgenProcessor")
 * public final class BankAccountRepository extends EventSourcedRepository<...> { ... }
 * }</pre>
 */
@Retention(RetentionPolicy.SOURCE)
@Target(ElementType.TYPE)
public @interface Generated {

  /** The fully qualified name of the code generator, as in the JDK's {@code Generated}. */
  String[] value();
}
