/**
 * esgen's internals: not API. Public only so that esgen's own packages can reach each other; anything
 * here may change or go away in any release without notice. Users touch {@code dev.esgen.runtime},
 * {@code .config}, {@code .repository}, {@code .error}, {@code .query}, {@code .history},
 * {@code .metrics}, {@code .provision}, {@code .feed} and {@code .streams}, and of {@code .aggregate} and
 * {@code .codec} what a definition and a mapper need ({@code AggregateDefinition}, {@code LayoutKind},
 * {@code TipPolicy}, {@code EsgenJson}); generated code also uses {@code .aggregate}, {@code .codec} and
 * {@code .index}.
 */
package dev.esgen.runtime.internal;
