package dev.esgen.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.Locale;

/** What the figures were measured on, for the report's first lines. */
record Machine(int processors, long memoryMegabytes, String jdk, String os, String date) {

  static Machine current() {
    return new Machine(Runtime.getRuntime().availableProcessors(), totalMemoryMegabytes(),
        System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version"),
        System.getProperty("os.name") + " " + System.getProperty("os.version") + " " + System.getProperty("os.arch"),
        LocalDate.now().toString());
  }

  /** From /proc/meminfo where there is one, else unknown (0). */
  private static long totalMemoryMegabytes() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/meminfo"))) {
        if (line.toLowerCase(Locale.ROOT).startsWith("memtotal:")) {
          return Long.parseLong(line.replaceAll("[^0-9]", "")) / 1024;
        }
      }
    } catch (IOException | RuntimeException unknown) {
      return 0;
    }
    return 0;
  }
}
