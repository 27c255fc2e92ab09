package dev.esgen.runtime.index;

/**
 * One aggregate component that is looked up or kept unique.
 *
 * <pre>{@code
 * IndexColumn email = new IndexColumn("email", true);
 * }</pre>
 *
 * @param name the component's name, which is also the column's name in errors and docs
 * @param unique whether no two aggregates of the type may hold the same value
 */
public record IndexColumn(String name, boolean unique) {}
