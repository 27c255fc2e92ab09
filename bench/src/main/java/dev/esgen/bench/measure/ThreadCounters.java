package dev.esgen.bench.measure;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * What the kernel counts for the calling thread (Linux {@code /proc/thread-self}): its user and system
 * CPU time, page faults, context switches and read/write system calls with their bytes. These show
 * where a thread's CPU goes outside Java frames, which a JFR execution sample does not see: time in
 * system calls, faults on fresh memory, being switched out. Empty where there is no such file.
 *
 * <pre>{@code
 * Optional<ThreadCounters> before = ThreadCounters.read();
 * ...calls...
 * Optional<ThreadCounters> used = ThreadCounters.read().flatMap(after -> before.map(after::minus));
 * }</pre>
 *
 * @param userTicks CPU time in user mode, in clock ticks (usually 10 ms)
 * @param systemTicks CPU time in the kernel on the thread's behalf, in clock ticks
 * @param minorFaults page faults served without I/O (first touch of memory, mostly)
 * @param voluntarySwitches times the thread gave up the CPU to wait (a blocking read, a park)
 * @param involuntarySwitches times the scheduler took the CPU from it
 * @param readCalls {@code read}-like system calls
 * @param writeCalls {@code write}-like system calls
 * @param readBytes bytes those returned
 * @param writtenBytes bytes those wrote
 */
public record ThreadCounters(long userTicks, long systemTicks, long minorFaults, long voluntarySwitches,
    long involuntarySwitches, long readCalls, long writeCalls, long readBytes, long writtenBytes) {

  /** Zero of everything: the start of a sum. */
  public static final ThreadCounters ZERO = new ThreadCounters(0, 0, 0, 0, 0, 0, 0, 0, 0);

  /** The calling thread's counters now, or empty where the kernel does not offer them. */
  public static Optional<ThreadCounters> read() {
    try {
      Path self = Path.of("/proc/thread-self");
      String stat = Files.readString(self.resolve("stat"));
      // The command name may hold spaces; the fields after it are fixed (proc(5)).
      String[] fields = stat.substring(stat.lastIndexOf(')') + 2).trim().split(" ");
      long minorFaults = Long.parseLong(fields[7]);
      long user = Long.parseLong(fields[11]);
      long system = Long.parseLong(fields[12]);
      long[] switches = values(self.resolve("status"), "voluntary_ctxt_switches", "nonvoluntary_ctxt_switches");
      long[] io = values(self.resolve("io"), "rchar", "wchar", "syscr", "syscw");
      return Optional.of(new ThreadCounters(user, system, minorFaults, switches[0], switches[1], io[2], io[3], io[0],
          io[1]));
    } catch (IOException | RuntimeException unavailable) {
      return Optional.empty();
    }
  }

  /**
   * The values of the {@code name: value} lines of {@code file} named {@code names}, in that order; 0 for
   * a name the file does not have.
   */
  private static long[] values(Path file, String... names) throws IOException {
    long[] values = new long[names.length];
    for (String line : Files.readAllLines(file)) {
      for (int i = 0; i < names.length; i++) {
        if (line.startsWith(names[i] + ":")) {
          values[i] = Long.parseLong(line.substring(names[i].length() + 1).trim());
        }
      }
    }
    return values;
  }

  public ThreadCounters minus(ThreadCounters earlier) {
    return new ThreadCounters(userTicks - earlier.userTicks, systemTicks - earlier.systemTicks,
        minorFaults - earlier.minorFaults, voluntarySwitches - earlier.voluntarySwitches,
        involuntarySwitches - earlier.involuntarySwitches, readCalls - earlier.readCalls,
        writeCalls - earlier.writeCalls, readBytes - earlier.readBytes, writtenBytes - earlier.writtenBytes);
  }

  public ThreadCounters plus(ThreadCounters other) {
    return new ThreadCounters(userTicks + other.userTicks, systemTicks + other.systemTicks,
        minorFaults + other.minorFaults, voluntarySwitches + other.voluntarySwitches,
        involuntarySwitches + other.involuntarySwitches, readCalls + other.readCalls, writeCalls + other.writeCalls,
        readBytes + other.readBytes, writtenBytes + other.writtenBytes);
  }
}
