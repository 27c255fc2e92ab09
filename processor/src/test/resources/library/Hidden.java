package lib;

record Hidden(int x) implements LibEvent {}
