package dev.esgen.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.Locale;

/** What the figures were measured on, for the report's first lines. */
record Machine(int processors, long memoryMegabytes, String jdk, String os, String date, String loadAverage) {

  static Machine current() {
    return new Machine(Runtime.getRuntime().availableProcessors(), totalMemoryMegabytes(),
        System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version"),
        System.getProperty("os.name") + " " + System.getProperty("os.version") + " " + System.getProperty("os.arch"),
        LocalDate.now().toString(), currentLoadAverage());
  }

  /**
   * The 1, 5 and 15 minute load averages from /proc/loadavg, or "unknown": on a shared machine they say
   * how much else was running while the figures were taken.
   */
  private static String currentLoadAverage() {
    try {
      String[] fields = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
      return fields[0] + ", " + fields[1] + ", " + fields[2];
    } catch (IOException | RuntimeException unknown) {
      return "unknown";
    }
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
