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
      long voluntary = 0;
      long involuntary = 0;
      for (String line : Files.readAllLines(self.resolve("status"))) {
        if (line.startsWith("voluntary_ctxt_switches:")) {
          voluntary = value(line);
        } else if (line.startsWith("nonvoluntary_ctxt_switches:")) {
          involuntary = value(line);
        }
      }
      long readBytes = 0;
      long writtenBytes = 0;
      long readCalls = 0;
      long writeCalls = 0;
      for (String line : Files.readAllLines(self.resolve("io"))) {
        if (line.startsWith("rchar:")) {
          readBytes = value(line);
        } else if (line.startsWith("wchar:")) {
          writtenBytes = value(line);
        } else if (line.startsWith("syscr:")) {
          readCalls = value(line);
        } else if (line.startsWith("syscw:")) {
          writeCalls = value(line);
        }
      }
      return Optional.of(new ThreadCounters(user, system, minorFaults, voluntary, involuntary, readCalls, writeCalls,
          readBytes, writtenBytes));
    } catch (IOException | RuntimeException unavailable) {
      return Optional.empty();
    }
  }

  private static long value(String line) {
    return Long.parseLong(line.substring(line.indexOf(':') + 1).trim());
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
