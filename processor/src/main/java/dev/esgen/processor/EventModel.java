package dev.esgen.processor;

import com.palantir.javapoet.ClassName;

/**
 * One concrete event type of an aggregate.
 *
 * @param type the event class
 * @param storedName the name it is stored under ({@code @EventType} or its simple name)
 * @param applied whether an {@code apply} handler takes it
 * @param creates whether the creating method takes it
 */
record EventModel(ClassName type, String storedName, boolean applied, boolean creates) {}
