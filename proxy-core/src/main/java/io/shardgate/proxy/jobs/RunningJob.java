package io.shardgate.proxy.jobs;

import io.shardgate.proxy.topology.TopologyStoreUnavailableException;

import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.UnaryOperator;

import static java.util.Objects.requireNonNull;

/**
 * The {@link JobContext} of one job on the proxy that holds its runner lease. Writes are compare-and-sets on the newest
 * version this context knows, under the lease: a conflict with another writer (the API) re-applies the change to what
 * is stored now; a lost lease ends the run. While the store cannot be reached a write is tried again, for at most
 * {@link #UNAVAILABLE_PATIENCE}, then the store's exception reaches the executor.
 */
final class RunningJob implements JobContext {
    static final Duration UNAVAILABLE_PATIENCE = Duration.ofSeconds(10);
    private static final int CONFLICTS = 50;

    private final JobStore store;
    private final RunnerLease lease;
    private final String proxyId;
    private final Clock clock;
    private final BooleanSupplier stopping;
    private volatile StoredJob latest;

    RunningJob(JobStore store, RunnerLease lease, StoredJob start, String proxyId, Clock clock, BooleanSupplier stopping) {
        this.store = requireNonNull(store, "store is null");
        this.lease = requireNonNull(lease, "lease is null");
        this.latest = requireNonNull(start, "start is null");
        this.proxyId = requireNonNull(proxyId, "proxyId is null");
        this.clock = requireNonNull(clock, "clock is null");
        this.stopping = requireNonNull(stopping, "stopping is null");
    }

    @Override
    public Job job() {
        return latest.job();
    }

    RunnerLease lease() {
        return lease;
    }

    /** Someone changed the job (the watch said so): read it, so {@link #requestedAction()} sees a new request. */
    void refresh() {
        try {
            store.read(latest.job().id()).ifPresent(this::newer);
        } catch (TopologyStoreUnavailableException e) {
            // The next write or refresh reads it again.
        }
    }

    private synchronized void newer(StoredJob stored) {
        if (stored.version() > latest.version()) {
            latest = stored;
        }
    }

    @Override
    public Job update(UnaryOperator<Job> change) throws LostLeaseException {
        long unavailableSince = -1;
        for (int attempt = 0; attempt < CONFLICTS; ) {
            if (lostLease()) {
                throw new LostLeaseException("job " + latest.job().id() + ": " + (lease.lost()
                        ? "this proxy (" + proxyId + ") no longer holds its runner lease" : "the proxy is stopping"));
            }
            StoredJob base = latest;
            if (base.job().phase().terminal()) {
                throw new LostLeaseException("job " + base.job().id() + " ended (" + base.job().phase().json()
                        + ") under this runner");
            }
            Job next = change.apply(base.job()).withRunner(proxyId).withUpdatedAt(clock.instant());
            JobWrite write;
            try {
                write = store.compareAndSet(base.version(), next, Optional.of(lease));
            } catch (TopologyStoreUnavailableException e) {
                long now = System.nanoTime();
                unavailableSince = unavailableSince < 0 ? now : unavailableSince;
                if (now - unavailableSince > UNAVAILABLE_PATIENCE.toNanos()) {
                    throw e;
                }
                LockSupport.parkNanos(Duration.ofMillis(200).toNanos()); // the store's outage, not a test's wait
                continue;
            }
            if (write instanceof JobWrite.Written written) {
                newer(new StoredJob(next, written.version()));
                return next;
            }
            JobWrite.Conflict conflict = (JobWrite.Conflict) write;
            if (conflict.current().isEmpty()) {
                throw new LostLeaseException("job " + base.job().id() + " is gone from the store");
            }
            newer(conflict.current().get());
            attempt++;
        }
        throw new IllegalStateException("job " + latest.job().id() + " kept changing under this runner's write");
    }

    @Override
    public boolean lostLease() {
        return lease.lost() || stopping.getAsBoolean();
    }

    @Override
    public String proxyId() {
        return proxyId;
    }

    @Override
    public Clock clock() {
        return clock;
    }
}
