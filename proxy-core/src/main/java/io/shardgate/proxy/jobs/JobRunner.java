package io.shardgate.proxy.jobs;

import io.shardgate.proxy.topology.TopologyStoreUnavailableException;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static java.util.Objects.requireNonNull;

/**
 * Runs jobs on this proxy. It follows the store (its watch, and a scan every {@code scanInterval} in case a watch event
 * was missed); for each job that is not terminal, whose kind this proxy has an executor for and that it does not run
 * already, it tries to take the runner lease, and with it runs the job's executor on a thread of its own. A job whose
 * runner died is taken once its lease expires, and resumes from its checkpoints.
 *
 * <p>When the executor throws, the job fails with the exception as its error, unless the lease was lost or the proxy
 * is stopping (then another runner carries on). When it returns without reaching a terminal phase, the job is
 * {@code cancelled} if a cancel was requested, else failed. {@link #close()} interrupts the executors and gives the
 * leases up, so another proxy takes the jobs at once.
 */
public final class JobRunner implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(JobRunner.class.getName());
    static final Duration EVENT_SCAN_GAP = Duration.ofMillis(100);

    private final JobStore store;
    private final JobExecutors executors;
    private final String proxyId;
    private final Clock clock;
    private final Duration scanInterval;
    private final Map<String, RunningJob> running = new ConcurrentHashMap<>();
    private final Map<String, Job> seen = new ConcurrentHashMap<>();
    private final Set<String> noExecutorLogged = ConcurrentHashMap.newKeySet();
    private final AtomicBoolean scanQueued = new AtomicBoolean();
    private final ScheduledExecutorService scanner = Executors.newSingleThreadScheduledExecutor(task -> {
        Thread thread = new Thread(task, "shardgate-jobs");
        thread.setDaemon(true);
        return thread;
    });
    private final ExecutorService workers = Executors.newCachedThreadPool(task -> {
        Thread thread = new Thread(task, "shardgate-job");
        thread.setDaemon(true);
        return thread;
    });
    private volatile boolean stopping;

    public JobRunner(JobStore store, JobExecutors executors, String proxyId, Clock clock, Duration scanInterval) {
        this.store = requireNonNull(store, "store is null");
        this.executors = requireNonNull(executors, "executors is null");
        this.proxyId = requireNonNull(proxyId, "proxyId is null");
        this.clock = requireNonNull(clock, "clock is null");
        this.scanInterval = requireNonNull(scanInterval, "scanInterval is null");
    }

    public void start() {
        store.watch(this::changed);
        scanner.scheduleWithFixedDelay(this::scan, 0, scanInterval.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** The jobs this proxy has seen at its last scan, by id (for the metrics). */
    public Map<String, Job> seen() {
        return Map.copyOf(seen);
    }

    /** The ids of the jobs this proxy runs now. */
    public Set<String> running() {
        return Set.copyOf(running.keySet());
    }

    public String proxyId() {
        return proxyId;
    }

    /**
     * A job or its runner changed. One this proxy runs is read again (an operator's request may have arrived); any
     * other may have lost its runner or be new: a scan follows, at most one per {@link #EVENT_SCAN_GAP}, so the progress
     * writes of jobs other proxies run do not make this one list the jobs after each.
     */
    private void changed(String id) {
        RunningJob job = running.get(id);
        if (job != null) {
            job.refresh();
            seen.put(id, job.job());
            return;
        }
        if (!stopping && scanQueued.compareAndSet(false, true)) {
            try {
                scanner.schedule(this::scan, EVENT_SCAN_GAP.toMillis(), TimeUnit.MILLISECONDS);
            } catch (java.util.concurrent.RejectedExecutionException e) {
                // Closing.
            }
        }
    }

    private void scan() {
        scanQueued.set(false);
        if (stopping) {
            return;
        }
        List<StoredJob> jobs;
        try {
            jobs = store.list();
        } catch (TopologyStoreUnavailableException e) {
            LOG.log(System.Logger.Level.DEBUG, "jobs: " + e.getMessage());
            return;
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "jobs: cannot list the jobs", e);
            return;
        }
        for (StoredJob stored : jobs) {
            Job job = stored.job();
            RunningJob here = running.get(job.id());
            seen.put(job.id(), here != null ? here.job() : job);
            if (job.phase().terminal() || here != null) {
                continue;
            }
            Optional<JobExecutor> executor = executors.forKind(job.kind());
            if (executor.isEmpty()) {
                if (noExecutorLogged.add(job.id())) {
                    LOG.log(System.Logger.Level.INFO, "job " + job.id() + ": this proxy has no executor for " + job.kind().json()
                            + " jobs; leaving it to one that has");
                }
                continue;
            }
            try {
                store.tryTakeRunner(job.id(), proxyId).ifPresent(lease -> start(stored, lease, executor.get()));
            } catch (TopologyStoreUnavailableException e) {
                LOG.log(System.Logger.Level.DEBUG, "job " + job.id() + ": " + e.getMessage());
                return;
            }
        }
    }

    private void start(StoredJob stored, RunnerLease lease, JobExecutor executor) {
        RunningJob context;
        try {
            // What the runner read may be older than the lease: read the job again now that nobody else writes it.
            StoredJob now = store.read(stored.job().id()).orElse(null);
            if (now == null || now.job().phase().terminal()) {
                lease.close();
                return;
            }
            context = new RunningJob(store, lease, now, proxyId, clock, () -> stopping);
        } catch (RuntimeException e) {
            lease.close();
            throw e;
        }
        running.put(stored.job().id(), context);
        LOG.log(System.Logger.Level.INFO, "job " + stored.job().id() + ": this proxy (" + proxyId + ") runs it from phase "
                + context.job().phase().json());
        workers.execute(() -> run(context, executor));
    }

    private void run(RunningJob context, JobExecutor executor) {
        String id = context.job().id();
        try {
            context.update(job -> job); // records this proxy as the runner
            executor.run(context);
            Job after = context.job();
            if (!after.phase().terminal() && !context.lostLease()) {
                context.update(job -> job.pendingAction().filter(action -> action == JobAction.CANCEL).isPresent()
                        ? job.withPhase(JobPhase.CANCELLED, proxyId, clock.instant())
                        : job.failed("the " + job.kind().json() + " executor stopped in phase " + job.phase().json(),
                        proxyId, clock.instant()));
            }
        } catch (LostLeaseException e) {
            LOG.log(System.Logger.Level.INFO, e.getMessage());
        } catch (Exception e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            if (context.lostLease()) {
                LOG.log(System.Logger.Level.INFO, "job " + id + " stopped here (" + e + "); another proxy carries on");
            } else {
                fail(context, e);
            }
        } finally {
            seen.put(id, context.job());
            running.remove(id);
            context.lease().close();
        }
    }

    private void fail(RunningJob context, Exception e) {
        String reason = e.getMessage() == null ? e.toString() : e.getMessage();
        LOG.log(System.Logger.Level.WARNING, "job " + context.job().id() + " failed: " + reason, e);
        try {
            context.update(job -> job.failed(reason, proxyId, clock.instant()));
        } catch (LostLeaseException | RuntimeException again) {
            LOG.log(System.Logger.Level.WARNING, "job " + context.job().id() + ": cannot record its failure: " + again);
        }
    }

    /** Stops scanning, interrupts the running executors and gives their leases up (waiting up to 5 s for them). */
    @Override
    public void close() {
        stopping = true;
        scanner.shutdownNow();
        workers.shutdownNow();
        try {
            if (!workers.awaitTermination(5, TimeUnit.SECONDS)) {
                LOG.log(System.Logger.Level.WARNING, "jobs " + running.keySet() + " did not stop within 5 s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
