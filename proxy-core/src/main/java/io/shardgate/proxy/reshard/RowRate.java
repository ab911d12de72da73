package io.shardgate.proxy.reshard;

import io.shardgate.replication.copy.Throttle;

import java.util.Optional;
import java.util.function.LongSupplier;

import static java.util.Objects.requireNonNull;

/**
 * A job's {@code max_rows_per_second}: the rows a copy or a diff read from the source since this rate's first look,
 * against the time since then. As the copy's {@link Throttle} it gives a reason while the rows are ahead of the rate
 * (the copy then pauses between chunks); the diff {@linkplain #await() waits} after each chunk until they are not. 0
 * is no limit.
 */
final class RowRate implements Throttle {
    private final long perSecond;
    private final LongSupplier nanoClock;
    private volatile LongSupplier rows = () -> 0;
    private long startNanos;
    private long startRows;
    private boolean started;

    RowRate(long perSecond, LongSupplier nanoClock) {
        if (perSecond < 0) {
            throw new IllegalArgumentException("perSecond must be >= 0: " + perSecond);
        }
        this.perSecond = perSecond;
        this.nanoClock = requireNonNull(nanoClock, "nanoClock is null");
    }

    /** Where the rows read so far come from (a running total; its value at the first look is the baseline). */
    void count(LongSupplier rowsRead) {
        this.rows = requireNonNull(rowsRead, "rowsRead is null");
    }

    boolean limited() {
        return perSecond > 0;
    }

    @Override
    public Optional<String> reason() {
        return aheadNanos() > 0 ? Optional.of("max_rows_per_second " + perSecond) : Optional.empty();
    }

    /** Sleeps until the rows read are no longer ahead of the rate. */
    void await() throws InterruptedException {
        long ahead = aheadNanos();
        if (ahead > 0) {
            Thread.sleep(ahead / 1_000_000, (int) (ahead % 1_000_000));
        }
    }

    /** How long the rows read so far are ahead of the rate; 0 when they are not (or no limit). */
    private synchronized long aheadNanos() {
        if (perSecond == 0) {
            return 0;
        }
        long now = nanoClock.getAsLong();
        long read = rows.getAsLong();
        if (!started) {
            started = true;
            startNanos = now;
            startRows = read;
            return 0;
        }
        long due = (long) ((read - startRows) * 1e9 / perSecond);
        return Math.max(0, due - (now - startNanos));
    }
}
