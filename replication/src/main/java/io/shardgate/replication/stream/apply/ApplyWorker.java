package io.shardgate.replication.stream.apply;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingDeque;
import java.util.concurrent.TimeUnit;

/**
 * One worker of a {@link ParallelApplier}: a thread with its own target session that takes
 * consecutive transactions from its queue (the ordered merge of the queues of the schemas it owns)
 * and applies them as one target transaction, up to the batch limits. A batch that fails for a
 * reason other than the connection is applied again one transaction at a time, so that those
 * before the bad one land and the error is about the bad one alone.
 */
final class ApplyWorker {
    private final ParallelApplier applier;
    private final ParallelApplier.Settings settings;
    /** Counted down when the applier stops: the worker ends after its current batch. */
    private final CountDownLatch stopping;
    final int index;
    final LinkedBlockingDeque<ParallelApplier.Item> queue;
    final Thread thread;
    /** How many schemas this worker owns; the applier gives a new schema to the worker with the fewest. */
    int schemas;

    ApplyWorker(ParallelApplier applier, ParallelApplier.Settings settings, CountDownLatch stopping, int index) {
        this.applier = applier;
        this.settings = settings;
        this.stopping = stopping;
        this.queue = new LinkedBlockingDeque<>(settings.queueCapacity());
        this.index = index;
        this.thread = new Thread(this::loop, "shardgate-apply-" + index);
        this.thread.setDaemon(true);
    }

    void start() {
        thread.start();
    }

    private void loop() {
        SessionHolder session = applier.newSession();
        try {
            while (stopping.getCount() > 0) {
                ParallelApplier.Item first = queue.pollFirst(100, TimeUnit.MILLISECONDS);
                if (first == null) {
                    continue;
                }
                List<ParallelApplier.Item> batch = new ArrayList<>();
                batch.add(first);
                int rowCount = first.transaction().rowCount();
                while (batch.size() < settings.maxBatchTransactions()) {
                    ParallelApplier.Item next = queue.peekFirst();
                    if (next == null || rowCount + next.transaction().rowCount() > settings.maxBatchRows()) {
                        break;
                    }
                    batch.add(queue.pollFirst());
                    rowCount += next.transaction().rowCount();
                }
                try {
                    applier.applyWithRetry(session, batch);
                } catch (ApplyException e) {
                    if (e.retryable() || batch.size() == 1) {
                        throw e;
                    }
                    // Apply the group one transaction at a time, so that those before the bad one land
                    // and the error is about the bad one alone.
                    for (ParallelApplier.Item item : batch) {
                        applier.applyWithRetry(session, List.of(item));
                        applier.release(List.of(item));
                    }
                    continue;
                }
                applier.release(batch);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            applier.fail(e);
        } finally {
            session.close();
        }
    }
}
