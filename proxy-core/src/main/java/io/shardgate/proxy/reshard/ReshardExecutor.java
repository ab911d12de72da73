package io.shardgate.proxy.reshard;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.shardgate.proxy.config.ShardgateConfig;
import io.shardgate.proxy.jobs.Job;
import io.shardgate.proxy.jobs.JobAction;
import io.shardgate.proxy.jobs.JobContext;
import io.shardgate.proxy.jobs.JobExecutor;
import io.shardgate.proxy.jobs.JobKind;
import io.shardgate.proxy.jobs.JobPhase;
import io.shardgate.proxy.jobs.ReshardSpec;
import io.shardgate.proxy.topology.LiveTopology;
import io.shardgate.proxy.topology.TopologyAdmin;
import io.shardgate.replication.copy.CopyCheckpoint;
import io.shardgate.replication.copy.CopyProgress;
import io.shardgate.replication.copy.CopySettings;
import io.shardgate.replication.copy.TableCopy;
import io.shardgate.replication.gtid.MariaDbGtidPosition;
import io.shardgate.replication.gtid.SnapshotPoint;
import io.shardgate.storage.StorageAdapters;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * Runs a reshard or table-move job. A reshard's target shards join the topology owning no keys; the source's tables are copied to them
 * ({@link TableCopy}, checkpointed per chunk); change streams keep them current; the diff compares the source with
 * the union of the targets at matched positions ({@link ReshardDiff}); the job waits {@code ready} for the operator's
 * cutover ({@link ReshardCutover}), which moves the keys (or the tables) with every proxy's writes to the source held;
 * then reverse streams keep the source current until the operator completes or reverses the job ({@link AfterSwitch}).
 * Every phase resumes from the job's checkpoints on whichever proxy takes the job next.
 */
public final class ReshardExecutor implements JobExecutor {
    private static final System.Logger LOG = System.getLogger(ReshardExecutor.class.getName());
    static final Duration POLL = Duration.ofMillis(200);
    private static final Duration PROGRESS = Duration.ofSeconds(1);

    private final TopologyAdmin topology;
    private final LiveTopology live;
    private final ShardgateConfig.BackendUser user;
    private final StorageAdapters adapters;
    private final CopySettings settings;

    public ReshardExecutor(TopologyAdmin topology, LiveTopology live, ShardgateConfig.BackendUser user, StorageAdapters adapters,
                           CopySettings settings) {
        this.topology = requireNonNull(topology, "topology is null");
        this.live = requireNonNull(live, "live is null");
        this.user = requireNonNull(user, "user is null");
        this.adapters = requireNonNull(adapters, "adapters is null");
        this.settings = requireNonNull(settings, "settings is null");
    }

    @Override
    public void run(JobContext context) throws Exception {
        Job job = context.job();
        ReshardPlan plan;
        if (job.kind() == JobKind.RESHARD) {
            ReshardSpec spec = job.reshardSpec();
            TargetShards.join(topology, live.applied().document(), spec, "job " + job.id() + " on " + context.proxyId());
            plan = ReshardPlan.of(spec, live.applied().document(), user, adapters);
        } else {
            plan = ReshardPlan.of(job.moveSpec(), live.applied().document(), user, adapters);
        }
        if (job.phase() == JobPhase.CUTTING_OVER) {
            CutoverRecovery.recover(context, topology, live, plan);
        }
        JobPhase phase = context.job().phase();
        if (phase != JobPhase.SWITCHED && phase != JobPhase.REVERSING && !beforeSwitch(context, plan)) {
            return;
        }
        new AfterSwitch(context, topology, live, plan, settings.streamWorkers()).run();
    }

    /** Copy, catch-up, diff and {@code ready} until the cutover; whether the keys (or tables) moved. */
    private boolean beforeSwitch(JobContext context, ReshardPlan plan) throws Exception {
        Job job = context.job();
        long maxRows = CopyThrottle.maxRowsPerSecond(job);
        RowRate rate = new RowRate(maxRows, System::nanoTime);
        TableCopy copy = new TableCopy(plan.sourceEndpoint(), plan.tables(), plan.targets(), CopyThrottle.settings(settings, maxRows),
                CopyThrottle.of(live.applied().document(), plan, user, rate), checkpoint -> saveCopy(context, checkpoint), adapters,
                notice -> LOG.log(System.Logger.Level.INFO, "job " + job.id() + ": " + notice));
        rate.count(() -> copy.progress().tables().stream().mapToLong(CopyProgress.TableProgress::rowsCopied).sum());
        SnapshotPoint copied;
        if (job.phase() == JobPhase.CREATED || job.phase() == JobPhase.COPYING) {
            context.phase(JobPhase.COPYING);
            List<CopyCheckpoint> resume = copyCheckpoints(context.job());
            copy.createSchema(!resume.isEmpty());
            Thread watcher = cancelWatcher(context, copy);
            try {
                copied = copy.run(resume);
            } finally {
                watcher.interrupt();
            }
            if (stopped(context)) {
                return false;
            }
            context.update(current -> current.withCheckpoint("copied", JsonNodeFactory.instance.textNode(copied.position().toString()))
                    .withCheckpoint("copied_lookback", JsonNodeFactory.instance.textNode(copied.lookback().toString()))
                    .withThrottle(null));
            context.phase(JobPhase.STREAMING);
        } else {
            copied = SnapshotPoint.of(MariaDbGtidPosition.parse(context.job().checkpoint("copied").map(JsonNode::asText).orElse("")),
                    MariaDbGtidPosition.parse(context.job().checkpoint("copied_lookback").map(JsonNode::asText).orElse("")));
        }
        // From the copy's end, also when resumed: what a target applied since is skipped (its stored positions), and a
        // target that applied nothing yet has no position of its own to start from.
        try (PausedStreams streams = new PausedStreams(copy, plan.sourceEndpoint(), plan.targets(), copied)) {
            if (context.job().phase() == JobPhase.STREAMING || context.job().phase() == JobPhase.DIFFING) {
                if (!awaitCaughtUp(context, streams)) {
                    return false;
                }
                context.phase(JobPhase.DIFFING);
                new ReshardDiff(context, plan, streams, adapters).run();
                if (stopped(context)) {
                    return false;
                }
                if (job.kind() == JobKind.MOVE) {
                    context.checkpoint("sizes", TableSizes.of(plan));
                }
                context.phase(JobPhase.READY);
            }
            return ready(context, plan, streams);
        }
    }

    /**
     * Waits until the streams applied what the source held on entry and their lag is under a second (a stream that has
     * not applied its backlog yet shows no lag); false when the job stopped meanwhile.
     */
    private static boolean awaitCaughtUp(JobContext context, PausedStreams streams) throws Exception {
        MariaDbGtidPosition backlog = streams.sourcePosition();
        for (long round = 0; ; round++) {
            double lag = streams.streams().lagSeconds();
            reportLag(context, lag, round);
            failIfStreamFailed(streams);
            if (stopped(context)) {
                return false;
            }
            if (lag < 1.0 && streams.reached(backlog)) {
                return true;
            }
            Thread.sleep(POLL.toMillis());
        }
    }

    /** {@code ready}: the streams run; the operator's cutover or cancel decides. Whether the cutover switched. */
    private boolean ready(JobContext context, ReshardPlan plan, PausedStreams streams) throws Exception {
        for (long round = 0; ; round++) {
            double lag = streams.streams().lagSeconds();
            reportLag(context, lag, round);
            Job job = context.job();
            failIfStreamFailed(streams);
            if (stopped(context)) {
                return false;
            }
            if (job.pendingAction().filter(action -> action == JobAction.CUTOVER).isPresent()
                    && new ReshardCutover(context, topology, plan, streams).run()) {
                return true;
            }
            Thread.sleep(POLL.toMillis());
        }
    }

    /** The streams' lag in the job, once a second (the job's store takes every write). */
    private static void reportLag(JobContext context, double lag, long round) throws Exception {
        if (round % (PROGRESS.toMillis() / POLL.toMillis()) == 0) {
            context.update(job -> job.withStreamLag(Math.round(lag * 10) / 10.0));
        }
    }

    static void failIfStreamFailed(PausedStreams streams) {
        Throwable failure = streams.streams().failure();
        if (failure != null) {
            throw new IllegalStateException("a change stream to the targets stopped: " + failure.getMessage(), failure);
        }
    }

    /** A cancel request ends the job here ({@code cancelled}); a lost lease ends this runner's part. */
    static boolean stopped(JobContext context) throws Exception {
        if (context.lostLease()) {
            return true;
        }
        if (context.cancelled()) {
            context.update(job -> job.withRequestedAction(null).withStreamLag(null).withThrottle(null));
            context.phase(JobPhase.CANCELLED);
            LOG.log(System.Logger.Level.INFO, "job " + context.job().id() + " cancelled: the source serves as before; the targets"
                    + " own no keys and can be dropped");
            return true;
        }
        return false;
    }

    /** Ends the copy at its next chunk when the job is cancelled or this runner loses it. */
    private static Thread cancelWatcher(JobContext context, TableCopy copy) {
        Thread watcher = new Thread(() -> {
            try {
                while (!Thread.currentThread().isInterrupted()) {
                    if (context.lostLease() || context.cancelled()) {
                        copy.cancel();
                        return;
                    }
                    CopyProgress progress = copy.progress();
                    Long eta = progress.eta().map(Duration::toSeconds).orElse(null);
                    context.update(job -> {
                        Job next = job.withThrottle(progress.throttled().isEmpty() ? null : progress.throttled());
                        for (CopyProgress.TableProgress table : progress.tables()) {
                            Job.TableProgress known = next.tables().getOrDefault(table.table(), Job.TableProgress.NONE);
                            next = next.withTable(table.table(), new Job.TableProgress(table.rowsCopied(), table.rowsTotal(),
                                    known.lastKey(), known.position(), table.done() ? 0 : progress.rowsPerSecond(), table.done() ? 0L : eta));
                        }
                        return next;
                    });
                    Thread.sleep(PROGRESS.toMillis());
                }
            } catch (InterruptedException | io.shardgate.proxy.jobs.LostLeaseException e) {
                Thread.currentThread().interrupt();
            } catch (RuntimeException e) {
                LOG.log(System.Logger.Level.DEBUG, "progress of " + context.job().id() + ": " + e.getMessage());
            }
        }, "reshard-watch-" + context.job().id());
        watcher.setDaemon(true);
        watcher.start();
        return watcher;
    }

    /** Stores a chunk's checkpoint; when this runner lost the job, the copy stops here (another runner goes on). */
    private static void saveCopy(JobContext context, CopyCheckpoint checkpoint) {
        try {
            context.update(job -> {
                Job.TableProgress known = job.tables().getOrDefault(checkpoint.table(), Job.TableProgress.NONE);
                return job.withCheckpoint("copy/" + checkpoint.table(), JsonNodeFactory.instance.textNode(checkpoint.toJson()))
                        .withTable(checkpoint.table(), new Job.TableProgress(checkpoint.rowsCopied(), checkpoint.rowsTotal(),
                                known.lastKey(), checkpoint.position(), known.rowsPerSecond(), known.etaSeconds()));
            });
        } catch (io.shardgate.proxy.jobs.LostLeaseException e) {
            throw new IllegalStateException("job " + context.job().id() + " is no longer this proxy's to run", e);
        }
    }

    private static List<CopyCheckpoint> copyCheckpoints(Job job) {
        List<CopyCheckpoint> checkpoints = new ArrayList<>();
        ObjectNode all = job.checkpoints();
        all.fieldNames().forEachRemaining(key -> {
            if (key.startsWith("copy/")) {
                checkpoints.add(CopyCheckpoint.fromJson(all.get(key).asText()));
            }
        });
        return checkpoints;
    }

    static Optional<String> text(Job job, String key) {
        return job.checkpoint(key).map(JsonNode::asText);
    }
}
