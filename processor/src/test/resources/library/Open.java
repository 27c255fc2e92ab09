package lib;

public non-sealed interface Open extends LibEvent {}
