package dev.esgen.runtime.internal.storage;

/**
 * What a {@link StorageLayout} remembers about a stream between loading it and appending to it, beyond
 * its version and seq_nr; each layout has its own implementation and only reads its own.
 *
 * <pre>{@code
 * LoadedStream<BankAccount> loaded = layout.load(definition, id).orElseThrow();
 * StreamPosition position = loaded.position();   // e.g. a JournalPosition: seq_nr of the head snapshot
 * }</pre>
 */
public interface StreamPosition {}
