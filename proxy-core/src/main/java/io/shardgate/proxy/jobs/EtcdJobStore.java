package io.shardgate.proxy.jobs;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.KeyValue;
import io.etcd.jetcd.Watch;
import io.etcd.jetcd.kv.GetResponse;
import io.etcd.jetcd.kv.TxnResponse;
import io.etcd.jetcd.op.Cmp;
import io.etcd.jetcd.op.CmpTarget;
import io.etcd.jetcd.op.Op;
import io.etcd.jetcd.options.DeleteOption;
import io.etcd.jetcd.options.GetOption;
import io.etcd.jetcd.options.PutOption;
import io.etcd.jetcd.options.WatchOption;
import io.etcd.jetcd.watch.WatchEvent;
import io.shardgate.proxy.topology.EtcdStoreSettings;
import io.shardgate.proxy.topology.TopologyStoreUnavailableException;
import io.shardgate.proxy.topology.UnaryDeadline;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.function.Supplier;

import static java.util.Objects.requireNonNull;

/**
 * The jobs in etcd, next to the topology: each job's JSON under {@code <prefix>/jobs/<id>} (its version the key's mod
 * revision), its runner under {@code <prefix>/jobs/<id>/runner}, attached to a lease of the topology's
 * {@code lease_ttl_s} that the runner keeps alive.
 *
 * <ul>
 *   <li>Taking a runner lease is one transaction: if the runner key was never created (create revision 0), put it
 *   under a new lease. Its create revision identifies this holding of the lease.</li>
 *   <li>A runner's write is one transaction: if the job's mod revision is the expected version <em>and</em> the runner
 *   key's create revision is still ours, put; else read both. A runner whose lease expired (it was stopped, or cut off
 *   from etcd for longer than the TTL) finds its key gone or re-created by another proxy, and can no longer write.</li>
 *   <li>The watch covers the whole {@code jobs/} prefix, so the deletion of a runner key by lease expiry is an event
 *   too. Every call has the dial timeout as its deadline.</li>
 * </ul>
 */
public final class EtcdJobStore implements JobStore {
    private static final System.Logger LOG = System.getLogger(EtcdJobStore.class.getName());
    private static final String RUNNER = "/runner";
    private static final Duration FIRST_ANSWER_ALLOWANCE = Duration.ofSeconds(5);

    private final EtcdStoreSettings settings;
    private final String prefix;
    private final Client client;
    /** After a failed call, the next one reconnects at once rather than after gRPC's backoff (up to 2 minutes). */
    private final io.shardgate.proxy.topology.ReconnectNow reconnect;
    private final JobJson json = new JobJson();
    private final ScheduledExecutorService events = Executors.newSingleThreadScheduledExecutor(task -> {
        Thread thread = new Thread(task, "shardgate-jobs-etcd");
        thread.setDaemon(true);
        return thread;
    });
    private final List<Watch.Watcher> watchers = new java.util.concurrent.CopyOnWriteArrayList<>();
    private final List<EtcdRunnerLease> leases = new java.util.concurrent.CopyOnWriteArrayList<>();
    private volatile boolean available = true;
    /** Until etcd has answered once, calls may take longer: the first also starts the client (as the topology store's). */
    private volatile boolean answeredOnce;
    private volatile boolean closed;

    public EtcdJobStore(EtcdStoreSettings settings) {
        this.settings = requireNonNull(settings, "settings is null");
        this.prefix = settings.prefix() + "/jobs/";
        this.client = Client.builder()
                .endpoints(settings.endpoints().toArray(String[]::new))
                .connectTimeout(settings.dialTimeout())
                .retryMaxAttempts(0)
                .interceptor(new UnaryDeadline(this::deadline))
                .build();
        this.reconnect = new io.shardgate.proxy.topology.ReconnectNow(client);
    }

    private Duration deadline() {
        return answeredOnce ? settings.dialTimeout() : settings.dialTimeout().plus(FIRST_ANSWER_ALLOWANCE);
    }

    @Override
    public List<StoredJob> list() {
        GetResponse response = await("list " + prefix, () -> client.getKVClient().get(bytes(prefix),
                GetOption.builder().isPrefix(true).build()));
        List<StoredJob> jobs = new ArrayList<>();
        for (KeyValue kv : response.getKvs()) {
            String id = text(kv.getKey()).substring(prefix.length());
            if (id.contains("/")) {
                continue; // a runner key
            }
            stored(kv).ifPresent(jobs::add);
        }
        return List.copyOf(jobs);
    }

    @Override
    public Optional<StoredJob> read(String id) {
        GetResponse response = await("read job " + id, () -> client.getKVClient().get(jobKey(id)));
        return response.getKvs().isEmpty() ? Optional.empty() : stored(response.getKvs().get(0));
    }

    private Optional<StoredJob> stored(KeyValue kv) {
        try {
            return Optional.of(new StoredJob(json.read(text(kv.getValue())), kv.getModRevision()));
        } catch (IllegalArgumentException e) {
            LOG.log(System.Logger.Level.WARNING, "ignoring " + text(kv.getKey()) + ": " + e.getMessage());
            return Optional.empty();
        }
    }

    @Override
    public JobWrite create(Job job) {
        return write(job, new Cmp(jobKey(job.id()), Cmp.Op.EQUAL, CmpTarget.createRevision(0)), "create job " + job.id());
    }

    @Override
    public JobWrite compareAndSet(long expectedVersion, Job job, Optional<RunnerLease> runner) {
        Cmp unchanged = new Cmp(jobKey(job.id()), Cmp.Op.EQUAL, CmpTarget.modRevision(expectedVersion));
        if (runner.isEmpty()) {
            return write(job, unchanged, "write job " + job.id());
        }
        EtcdRunnerLease lease = (EtcdRunnerLease) runner.get();
        ByteSequence runnerKey = runnerKey(job.id());
        TxnResponse response = await("write job " + job.id() + " as its runner", () -> client.getKVClient().txn()
                .If(unchanged, new Cmp(runnerKey, Cmp.Op.EQUAL, CmpTarget.createRevision(lease.createRevision())))
                .Then(Op.put(jobKey(job.id()), bytes(json.write(job)), PutOption.DEFAULT))
                .Else(Op.get(jobKey(job.id()), GetOption.DEFAULT), Op.get(runnerKey, GetOption.DEFAULT))
                .commit());
        if (response.isSucceeded()) {
            return new JobWrite.Written(response.getHeader().getRevision());
        }
        List<GetResponse> gets = response.getGetResponses();
        GetResponse runnerNow = gets.get(1);
        if (runnerNow.getKvs().isEmpty() || runnerNow.getKvs().get(0).getCreateRevision() != lease.createRevision()) {
            lease.markLost();
        }
        return conflict(gets.get(0));
    }

    private JobWrite write(Job job, Cmp condition, String what) {
        TxnResponse response = await(what, () -> client.getKVClient().txn()
                .If(condition)
                .Then(Op.put(jobKey(job.id()), bytes(json.write(job)), PutOption.DEFAULT))
                .Else(Op.get(jobKey(job.id()), GetOption.DEFAULT))
                .commit());
        return response.isSucceeded() ? new JobWrite.Written(response.getHeader().getRevision())
                : conflict(response.getGetResponses().get(0));
    }

    private JobWrite conflict(GetResponse current) {
        return new JobWrite.Conflict(current.getKvs().isEmpty() ? Optional.empty() : stored(current.getKvs().get(0)));
    }

    @Override
    public void watch(Consumer<String> changed) {
        requireNonNull(changed, "changed is null");
        openWatch(changed);
    }

    private void openWatch(Consumer<String> changed) {
        if (closed) {
            return;
        }
        try {
            watchers.add(client.getWatchClient().watch(bytes(prefix), WatchOption.builder().isPrefix(true).build(),
                    Watch.listener(response -> {
                        for (WatchEvent event : response.getEvents()) {
                            String rest = text(event.getKeyValue().getKey()).substring(prefix.length());
                            String id = rest.endsWith(RUNNER) ? rest.substring(0, rest.length() - RUNNER.length()) : rest;
                            deliver(() -> changed.accept(id));
                        }
                    }, error -> reopen(changed), () -> reopen(changed))));
        } catch (RuntimeException e) {
            reopen(changed);
        }
    }

    private void reopen(Consumer<String> changed) {
        if (!closed) {
            try {
                events.schedule(() -> openWatch(changed), 1, TimeUnit.SECONDS);
            } catch (RejectedExecutionException e) {
                // Closing.
            }
        }
    }

    private void deliver(Runnable event) {
        try {
            events.execute(event);
        } catch (RejectedExecutionException e) {
            // Closing: nobody listens any more.
        }
    }

    @Override
    public Optional<RunnerLease> tryTakeRunner(String jobId, String proxyId) {
        if (runner(jobId).isPresent()) {
            return Optional.empty(); // one read, not a lease granted and revoked, while another proxy runs the job
        }
        ByteSequence key = runnerKey(jobId);
        long ttl = (settings.leaseTtl().toMillis() + 999) / 1000;
        long leaseId = await("grant a lease of " + ttl + " s", () -> client.getLeaseClient().grant(ttl)).getID();
        TxnResponse response;
        try {
            response = await("take the runner of job " + jobId, () -> client.getKVClient().txn()
                    .If(new Cmp(key, Cmp.Op.EQUAL, CmpTarget.createRevision(0)))
                    .Then(Op.put(key, bytes(proxyId), PutOption.builder().withLeaseId(leaseId).build()))
                    .commit());
        } catch (TopologyStoreUnavailableException e) {
            revokeQuietly(leaseId);
            throw e;
        }
        if (!response.isSucceeded()) {
            revokeQuietly(leaseId);
            return Optional.empty();
        }
        EtcdRunnerLease lease = new EtcdRunnerLease(jobId, proxyId, leaseId, response.getHeader().getRevision(), this::release);
        leases.add(lease);
        lease.keepAlive(client.getLeaseClient().keepAlive(leaseId, lease));
        return Optional.of(lease);
    }

    @Override
    public Optional<String> runner(String jobId) {
        GetResponse response = await("read the runner of job " + jobId, () -> client.getKVClient().get(runnerKey(jobId)));
        return response.getKvs().isEmpty() ? Optional.empty() : Optional.of(text(response.getKvs().get(0).getValue()));
    }

    @Override
    public boolean available() {
        return available;
    }

    @Override
    public String describe() {
        return "etcd " + String.join(",", settings.endpoints());
    }

    /**
     * Stops keeping the runner leases alive and closes the client without revoking them or deleting their keys: what a
     * proxy that is killed leaves behind (its jobs' runner keys live until the TTL). For tests of takeover.
     */
    void abandonForTest() {
        closed = true;
        leases.forEach(EtcdRunnerLease::stopKeepAlive);
        shutDown();
    }

    /** Gives up every runner lease still held (best effort) and closes the client. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        leases.forEach(EtcdRunnerLease::close);
        closed = true;
        shutDown();
    }

    private void shutDown() {
        watchers.forEach(Watch.Watcher::close);
        events.shutdownNow();
        client.close();
    }

    /** Deletes the runner key if it is still {@code lease}'s, and revokes the lease (best effort). */
    private void release(EtcdRunnerLease lease) {
        leases.remove(lease);
        if (closed) {
            return;
        }
        ByteSequence key = runnerKey(lease.jobId());
        try {
            await("release the runner of job " + lease.jobId(), () -> client.getKVClient().txn()
                    .If(new Cmp(key, Cmp.Op.EQUAL, CmpTarget.createRevision(lease.createRevision())))
                    .Then(Op.delete(key, DeleteOption.DEFAULT))
                    .commit());
        } catch (TopologyStoreUnavailableException e) {
            LOG.log(System.Logger.Level.DEBUG, "releasing the runner of job " + lease.jobId() + ": " + e.getMessage());
        }
        revokeQuietly(lease.leaseId());
    }

    private void revokeQuietly(long leaseId) {
        try {
            await("revoke lease " + Long.toHexString(leaseId), () -> client.getLeaseClient().revoke(leaseId));
        } catch (TopologyStoreUnavailableException e) {
            // It expires after its TTL.
        }
    }

    private void unavailable() {
        available = false;
        reconnect.reset();
    }

    private <T> T await(String what, Supplier<CompletableFuture<T>> call) {
        CompletableFuture<T> future;
        try {
            future = call.get();
        } catch (RuntimeException e) {
            unavailable();
            throw new TopologyStoreUnavailableException(describe() + ": cannot " + what + ": " + e.getMessage(), e);
        }
        try {
            // A little past the gRPC deadline, so the call's own DEADLINE_EXCEEDED is what the caller sees.
            T result = future.get(deadline().toMillis() + 500, TimeUnit.MILLISECONDS);
            answeredOnce = true;
            available = true;
            return result;
        } catch (TimeoutException e) {
            future.cancel(true);
            unavailable();
            throw new TopologyStoreUnavailableException(describe() + ": no answer to " + what, e);
        } catch (ExecutionException e) {
            unavailable();
            Throwable cause = e.getCause() == null ? e : e.getCause();
            throw new TopologyStoreUnavailableException(describe() + ": cannot " + what + ": " + cause.getMessage(), cause);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            future.cancel(true);
            throw new TopologyStoreUnavailableException(describe() + ": interrupted waiting to " + what, e);
        }
    }

    private ByteSequence jobKey(String id) {
        return bytes(prefix + id);
    }

    private ByteSequence runnerKey(String id) {
        return bytes(prefix + id + RUNNER);
    }

    private static ByteSequence bytes(String text) {
        return ByteSequence.from(text, StandardCharsets.UTF_8);
    }

    private static String text(ByteSequence bytes) {
        return bytes.toString(StandardCharsets.UTF_8);
    }
}
