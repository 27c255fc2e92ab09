package lib;

public record LibOpened(String id) implements LibEvent {}
