package io.shardgate.proxy.jobs;

import io.etcd.jetcd.lease.LeaseKeepAliveResponse;
import io.etcd.jetcd.support.CloseableClient;
import io.grpc.stub.StreamObserver;

import java.util.function.Consumer;

/**
 * One holding of a job's runner key in etcd ({@link EtcdJobStore}): the etcd lease it is attached to, kept alive by
 * jetcd (this is the keep-alive's observer), and the key's create revision, which tells this holding from a later one.
 * Lost when the lease is, or when a write finds the key gone or re-created.
 */
final class EtcdRunnerLease implements RunnerLease, StreamObserver<LeaseKeepAliveResponse> {
    private final String jobId;
    private final String holder;
    private final long leaseId;
    private final long createRevision;
    private final Consumer<EtcdRunnerLease> release;
    private volatile CloseableClient keepAlive;
    private volatile boolean lost;
    private volatile boolean released;

    /** @param release deletes the key if it is still this holding's, and revokes the lease (best effort) */
    EtcdRunnerLease(String jobId, String holder, long leaseId, long createRevision, Consumer<EtcdRunnerLease> release) {
        this.jobId = jobId;
        this.holder = holder;
        this.leaseId = leaseId;
        this.createRevision = createRevision;
        this.release = release;
    }

    @Override
    public String jobId() {
        return jobId;
    }

    @Override
    public String holder() {
        return holder;
    }

    long leaseId() {
        return leaseId;
    }

    long createRevision() {
        return createRevision;
    }

    void keepAlive(CloseableClient running) {
        this.keepAlive = running;
    }

    /** A write found the runner key gone or someone else's. */
    void markLost() {
        lost = true;
    }

    @Override
    public boolean lost() {
        return lost || released;
    }

    @Override
    public void onNext(LeaseKeepAliveResponse response) {
        if (response.getTTL() <= 0) {
            lost = true;
        }
    }

    @Override
    public void onError(Throwable error) {
        lost = true;
    }

    @Override
    public void onCompleted() {
        lost = true;
    }

    /** Stops renewing the lease, without releasing anything: the key lives until the lease's TTL. */
    void stopKeepAlive() {
        CloseableClient running = keepAlive;
        if (running != null) {
            running.close();
        }
    }

    @Override
    public synchronized void close() {
        if (released) {
            return;
        }
        released = true;
        stopKeepAlive();
        release.accept(this);
    }
}
