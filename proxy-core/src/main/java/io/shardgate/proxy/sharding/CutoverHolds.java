package io.shardgate.proxy.sharding;

import io.shardgate.proxy.topology.TopologyApplier;
import io.shardgate.proxy.topology.WriteHold;
import io.shardgate.router.schema.ShardingSchema;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

import static java.util.Objects.requireNonNull;

/**
 * What a topology version's cutover fields do to a sharded deployment: a new shard map is planned against at once,
 * and the write holds go to {@link WriteHolds}. Once the writes this proxy had under way on a hold's shards are done,
 * the hold's job is reported drained ({@code drainedJobs}: this proxy's registration carries it), which is what the
 * cutover waits for from every proxy before it records the source's position.
 */
public final class CutoverHolds implements TopologyApplier.CutoverListener {
    private static final System.Logger LOG = System.getLogger(CutoverHolds.class.getName());

    private final ShardedDeployment deployment;
    private final Consumer<List<String>> drainedJobs;
    private final LongSupplier clock;
    private final Set<String> drained = new TreeSet<>();
    private Set<String> current = Set.of();

    public CutoverHolds(ShardedDeployment deployment, Consumer<List<String>> drainedJobs, LongSupplier clock) {
        this.deployment = requireNonNull(deployment, "deployment is null");
        this.drainedJobs = requireNonNull(drainedJobs, "drainedJobs is null");
        this.clock = requireNonNull(clock, "clock is null");
    }

    @Override
    public void shardMap(ShardingSchema next) {
        deployment.switchTo(next);
    }

    @Override
    public void holds(List<WriteHold> holds, long version) {
        long now = clock.getAsLong();
        Map<String, WriteHolds.Held> byShard = new HashMap<>();
        Set<String> jobs = new TreeSet<>();
        for (WriteHold hold : holds) {
            jobs.add(hold.job());
            for (String shard : hold.shards()) {
                byShard.put(shard, new WriteHolds.Held(hold.job(), now + hold.maxHoldMs()));
            }
        }
        synchronized (this) {
            current = jobs;
            drained.retainAll(jobs);
            deployment.holds().set(byShard);
            publish();
        }
        for (WriteHold hold : holds) {
            LOG.log(System.Logger.Level.INFO, "topology version " + version + ": writes to " + hold.shards() + " held for job "
                    + hold.job() + " (at most " + hold.maxHoldMs() + " ms)");
            deployment.holds().drained(Set.copyOf(hold.shards())).thenRun(() -> drained(hold.job()));
        }
    }

    private synchronized void drained(String job) {
        if (current.contains(job) && drained.add(job)) {
            LOG.log(System.Logger.Level.INFO, "job " + job + ": no write is under way on its held shards here");
            publish();
        }
    }

    private void publish() {
        drainedJobs.accept(new ArrayList<>(drained));
    }
}
