/**
 * esgen's internals: not API. Public only so that esgen's own packages can reach each other; anything
 * here may change or go away in any release without notice. Users touch {@code dev.esgen.runtime},
 * {@code .config}, {@code .repository}, {@code .error}, {@code .query}, {@code .history},
 * {@code .metrics} and {@code .provision}; generated code also uses {@code .aggregate}, {@code .codec} and
 * {@code .index}.
 */
package dev.esgen.runtime.internal.async;
