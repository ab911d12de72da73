package io.shardgate.proxy.jobs;

import java.time.Duration;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/** Waits for a condition (checked every 10 ms) instead of sleeping: fails naming it after {@code timeout}. */
final class Eventually {
    private Eventually() {
    }

    static void until(String what, Duration timeout, BooleanSupplier condition) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not within " + timeout.toMillis() + " ms: " + what);
            }
            LockSupport.parkNanos(Duration.ofMillis(10).toNanos());
        }
    }
}
