package lib;

public enum Colors implements LibEvent { RED }
