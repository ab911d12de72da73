package io.shardgate.replication.stream.apply;

import io.shardgate.replication.gtid.MariaDbGtidPosition;
import io.shardgate.replication.stream.Transaction;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * A target that records what it is asked to apply and checks the scheduling rules while it
 * happens: no two sessions apply the same schema at once, and a DDL barrier for every schema
 * runs with nothing else running.
 */
final class FakeTarget implements ApplyTarget {
    private final AppliedPositions stored;
    final Map<String, List<Long>> appliedBySchema = new HashMap<>();
    final List<Integer> batchSizes = new ArrayList<>();
    final List<String> violations = new ArrayList<>();
    final Set<Long> failOn = new HashSet<>();
    final Set<Long> failOnceRetryably = new HashSet<>();
    volatile CountDownLatch holdFirstBatch;
    volatile MariaDbGtidPosition savedWatermark;
    volatile MariaDbGtidPosition savedFloor;
    private final Set<String> active = new HashSet<>();
    private int activeGlobal;
    private int sessions;

    FakeTarget(AppliedPositions stored) {
        this.stored = stored;
    }

    @Override
    public AppliedPositions load() {
        return stored;
    }

    @Override
    public void saveFloor(MariaDbGtidPosition floor) {
        savedFloor = floor;
    }

    @Override
    public synchronized TargetSession open() {
        sessions++;
        return new Session();
    }

    synchronized List<Long> applied(String schema) {
        return List.copyOf(appliedBySchema.getOrDefault(schema, List.of()));
    }

    private final class Session implements TargetSession {
        @Override
        public void apply(List<Transaction> batch) {
            CountDownLatch hold = holdFirstBatch;
            if (hold != null) {
                holdFirstBatch = null;
                try {
                    hold.await(10, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            Set<String> schemas = new HashSet<>();
            boolean global = false;
            for (Transaction transaction : batch) {
                schemas.addAll(transaction.schemas());
                global |= transaction.isGlobalBarrier();
                long seq = transaction.gtid().sequence();
                synchronized (FakeTarget.this) {
                    if (failOnceRetryably.remove(seq)) {
                        throw new ApplyException("transaction " + transaction.gtid() + ": deadlock", true, null);
                    }
                }
                if (failOn.contains(seq)) {
                    throw new ApplyException("transaction " + transaction.gtid() + ": INSERT into a.t key (id=" + seq
                            + ") failed on target: Duplicate entry", false, null);
                }
            }
            synchronized (FakeTarget.this) {
                for (String schema : schemas) {
                    if (active.contains(schema)) {
                        violations.add("schema " + schema + " applied by two sessions at once");
                    }
                }
                if (activeGlobal > 0 || (global && !active.isEmpty())) {
                    violations.add("a barrier for every schema overlapped with " + active);
                }
                active.addAll(schemas);
                activeGlobal += global ? 1 : 0;
                batchSizes.add(batch.size());
                for (Transaction transaction : batch) {
                    for (String schema : transaction.schemas()) {
                        appliedBySchema.computeIfAbsent(schema, s -> new ArrayList<>()).add(transaction.gtid().sequence());
                    }
                }
            }
            LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(200)); // the time a real apply takes
            synchronized (FakeTarget.this) {
                active.removeAll(schemas);
                activeGlobal -= global ? 1 : 0;
            }
        }

        @Override
        public void saveWatermark(MariaDbGtidPosition watermark) {
            savedWatermark = watermark;
        }

        @Override
        public void close() {
        }
    }
}
