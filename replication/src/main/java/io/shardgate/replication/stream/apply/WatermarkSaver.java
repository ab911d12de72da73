package io.shardgate.replication.stream.apply;

import io.micrometer.core.instrument.Counter;
import io.shardgate.replication.gtid.MariaDbGtidPosition;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import static java.util.Objects.requireNonNull;

/**
 * Saves a {@link ParallelApplier}'s watermark on the target every so often, on a thread of its own, until the applier
 * stops; the applier saves it once more when it closes ({@link #save}).
 */
final class WatermarkSaver {
    private final ApplyTarget target;
    private final WatermarkTracker tracker;
    private final long everyMillis;
    private final CountDownLatch stopping;
    private final Counter retries;
    private final Consumer<Throwable> fail;
    private final Thread thread;
    private MariaDbGtidPosition saved;

    /** {@code saved}: the watermark already stored, or where the stream starts (saved once the watermark moves). */
    WatermarkSaver(ApplyTarget target, WatermarkTracker tracker, MariaDbGtidPosition saved, long everyMillis,
                   CountDownLatch stopping, Counter retries, Consumer<Throwable> fail) {
        this.target = requireNonNull(target, "target is null");
        this.tracker = requireNonNull(tracker, "tracker is null");
        this.saved = requireNonNull(saved, "saved is null");
        this.everyMillis = everyMillis;
        this.stopping = requireNonNull(stopping, "stopping is null");
        this.retries = requireNonNull(retries, "retries is null");
        this.fail = requireNonNull(fail, "fail is null");
        this.thread = new Thread(this::loop, "shardgate-apply-checkpoint");
        this.thread.setDaemon(true);
    }

    void start() {
        thread.start();
    }

    /** Waits (up to 10 s) for the saving thread to end once the applier is stopping. */
    void join() {
        try {
            thread.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Saves the watermark through {@code session} if it moved since the last save. */
    synchronized void save(TargetSession session) {
        MariaDbGtidPosition now = tracker.watermark();
        if (!now.equals(saved)) {
            session.saveWatermark(now);
            saved = now;
        }
    }

    private void loop() {
        SessionHolder session = new SessionHolder(target);
        try {
            while (!stopping.await(everyMillis, TimeUnit.MILLISECONDS)) {
                try {
                    save(session.get());
                } catch (ApplyException e) {
                    if (!e.retryable()) {
                        throw e;
                    }
                    // The target is away for a moment; the next round saves a newer watermark.
                    retries.increment();
                    session.reopen();
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            fail.accept(e);
        } finally {
            session.close();
        }
    }
}
