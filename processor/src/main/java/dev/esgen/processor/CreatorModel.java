package dev.esgen.processor;

import com.palantir.javapoet.ClassName;

/**
 * The static method that builds the aggregate from the first event of its stream.
 *
 * @param methodName its name, such as {@code open}
 * @param parameterType the event type it takes: a concrete event, a sealed intermediate or the root
 * @param takesRoot whether that is the sealed root, so any event can start a stream
 */
record CreatorModel(String methodName, ClassName parameterType, boolean takesRoot) {}
