package dev.esgen.processor;

import com.palantir.javapoet.ClassName;

/**
 * An instance {@code apply} handler of the aggregate.
 *
 * @param parameterType the event type it takes: a concrete event, a sealed intermediate or the root
 * @param takesRoot whether that is the sealed root, so every event goes to it
 */
record HandlerModel(ClassName parameterType, boolean takesRoot) {}
