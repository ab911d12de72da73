package io.shardgate.tools.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * CPU time a process has used so far, in nanoseconds: read before and after a run, the difference divided by the
 * statements of the run is the CPU per statement, which a loaded shared machine distorts far less than tps.
 */
@FunctionalInterface
interface CpuClock {
    /** Linux reports /proc/[pid]/stat times in USER_HZ, which is 100 on every architecture the JDK runs on. */
    long NANOS_PER_TICK = 10_000_000L;

    long cpuNanos() throws IOException;

    /** This JVM: the proxies the benches start run in it. */
    static CpuClock self() {
        com.sun.management.OperatingSystemMXBean os =
                (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        return os::getProcessCpuTime;
    }

    /** Another process (HAProxy): utime + stime of all its threads, from /proc/[pid]/stat. */
    static CpuClock ofPid(long pid) {
        Path stat = Path.of("/proc", Long.toString(pid), "stat");
        return () -> statTicks(Files.readString(stat)) * NANOS_PER_TICK;
    }

    /**
     * utime + stime (fields 14 and 15) of a /proc/[pid]/stat line. The command name (field 2) is in parentheses
     * and may hold spaces or parentheses itself, so the fields are counted after its last ')'.
     */
    static long statTicks(String stat) {
        int close = stat.lastIndexOf(')');
        if (close < 0) {
            throw new IllegalArgumentException("not a /proc/[pid]/stat line: " + stat);
        }
        String[] fields = stat.substring(close + 1).trim().split(" ");
        // fields[0] is field 3 (state), so field n is fields[n - 3].
        if (fields.length < 13) {
            throw new IllegalArgumentException("not a /proc/[pid]/stat line: " + stat);
        }
        return Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
    }
}
