package io.shardgate.replication.topology;

import java.time.Duration;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/** Waits for a condition by checking it every few milliseconds, up to a deadline. */
final class Poll {
    private Poll() {
    }

    /** Returns true once {@code condition} holds, false when {@code timeout} passed first. */
    static boolean until(Duration timeout, BooleanSupplier condition) {
        long deadline = System.nanoTime() + timeout.toNanos();
        long pause = Duration.ofMillis(5).toNanos();
        while (true) {
            if (condition.getAsBoolean()) {
                return true;
            }
            if (System.nanoTime() - deadline > 0) {
                return false;
            }
            if (Thread.currentThread().isInterrupted()) {
                throw new TopologyException("interrupted while waiting");
            }
            LockSupport.parkNanos(pause);
            pause = Math.min(pause * 2, Duration.ofMillis(50).toNanos());
        }
    }
}
