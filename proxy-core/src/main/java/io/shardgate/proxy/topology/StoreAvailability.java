package io.shardgate.proxy.topology;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * Whether a remote store answers, from the outcomes of its calls: unavailable once it has failed to answer for
 * {@code grace} (counted from the start of the first call that failed since the last answer), available again with
 * the next answer. Reading it never blocks.
 *
 * <p>Example with a grace of 1 s: a probe starts at t=0 and times out at t=1; {@code failed(0)} at t=1 leaves the
 * store unavailable from t=1 on. A call started at t=0.5 that fails at t=0.7 makes it unavailable from t=1.5 (its
 * start plus the grace). Any answer, {@code answered()}, makes it available at once.
 */
final class StoreAvailability {
    private static final long NONE = Long.MIN_VALUE;

    private final long graceNanos;
    private final LongSupplier nanoClock;
    private final AtomicLong failingSince = new AtomicLong(NONE);

    StoreAvailability(Duration grace, LongSupplier nanoClock) {
        this.graceNanos = grace.toNanos();
        this.nanoClock = nanoClock;
    }

    /** A call answered. */
    void answered() {
        failingSince.set(NONE);
    }

    /** A call started at {@code startedNanos} (of the same clock) got no answer. */
    void failed(long startedNanos) {
        failingSince.accumulateAndGet(startedNanos, (current, started) -> current == NONE ? started
                : Math.min(current, started));
    }

    boolean available() {
        long since = failingSince.get();
        return since == NONE || nanoClock.getAsLong() - since < graceNanos;
    }

    long now() {
        return nanoClock.getAsLong();
    }
}
