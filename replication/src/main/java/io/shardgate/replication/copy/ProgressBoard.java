package io.shardgate.replication.copy;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.DoubleSupplier;

/** The copy's progress as the copying thread updates it; {@link #snapshot()} from any thread. */
final class ProgressBoard {
    private final Clock clock;
    private final Map<String, CopyProgress.TableProgress> tables = new LinkedHashMap<>();
    private CopyProgress.Phase phase = CopyProgress.Phase.PREPARING;
    private String throttled = "";
    private String error = "";
    private long copiedThisRun;
    private long copyingMillis;
    private long copyingSince = -1;
    private DoubleSupplier streamLag = () -> 0;
    private final CopyTimings timings;
    private long catchingUpSince = -1;

    ProgressBoard(Clock clock) {
        this(clock, new CopyTimings());
    }

    /** Records each catch-up between chunks (from {@code COPYING} to {@code CATCHING_UP} and back) in {@code timings}. */
    ProgressBoard(Clock clock, CopyTimings timings) {
        this.clock = clock;
        this.timings = timings;
    }

    synchronized void table(CopyCheckpoint checkpoint) {
        tables.put(checkpoint.table(), new CopyProgress.TableProgress(checkpoint.table(), checkpoint.rowsCopied(),
                Math.max(checkpoint.rowsTotal(), checkpoint.rowsCopied()), checkpoint.done()));
    }

    synchronized void copied(long rows) {
        copiedThisRun += rows;
    }

    synchronized void phase(CopyProgress.Phase next) {
        long now = clock.millis();
        if (phase == CopyProgress.Phase.COPYING && copyingSince >= 0) {
            copyingMillis += now - copyingSince;
            copyingSince = -1;
        }
        if (next == CopyProgress.Phase.COPYING) {
            copyingSince = now;
        }
        if (phase == CopyProgress.Phase.CATCHING_UP && next == CopyProgress.Phase.COPYING && catchingUpSince >= 0) {
            timings.add("catch-up", (now - catchingUpSince) * 1_000_000);
            catchingUpSince = -1;
        }
        if (next == CopyProgress.Phase.CATCHING_UP && phase == CopyProgress.Phase.COPYING) {
            catchingUpSince = now;
        }
        phase = next;
    }

    synchronized void throttled(String reason) {
        throttled = reason.isEmpty() ? "" : "throttled: " + reason;
    }

    synchronized void failed(String message) {
        phase(CopyProgress.Phase.FAILED);
        error = message;
    }

    synchronized void streamLag(DoubleSupplier lag) {
        streamLag = lag;
    }

    synchronized CopyProgress snapshot() {
        long millis = copyingMillis + (copyingSince >= 0 ? clock.millis() - copyingSince : 0);
        double rate = millis > 0 ? copiedThisRun * 1000.0 / millis : 0;
        long left = 0;
        for (CopyProgress.TableProgress table : tables.values()) {
            left += table.done() ? 0 : Math.max(0, table.rowsTotal() - table.rowsCopied());
        }
        Optional<Duration> eta = rate > 0 ? Optional.of(Duration.ofMillis((long) (left * 1000 / rate))) : Optional.empty();
        return new CopyProgress(phase, new ArrayList<>(tables.values()), rate, eta, throttled,
                phase == CopyProgress.Phase.STREAMING ? streamLag.getAsDouble() : 0, error);
    }
}
