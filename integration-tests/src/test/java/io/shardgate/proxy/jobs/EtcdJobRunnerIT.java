package io.shardgate.proxy.jobs;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.shardgate.proxy.topology.EtcdStoreSettings;
import io.shardgate.replication.topology.EtcdCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.TestInstance;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Jobs on a real 3-member etcd cluster: two runners ("proxies") in one JVM, each with its own etcd client. Runner A takes
 * a job and checkpoints; B, started meanwhile, leaves it alone while A's lease lives; A is then killed (its keep-alive
 * stops and its client closes without releasing anything), and B takes the job within the lease's TTL and resumes from
 * A's last checkpoint. In the package of the store, for its {@code abandonForTest()}.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class EtcdJobRunnerIT {
    private static final Duration DIAL = Duration.ofSeconds(1);
    private static final Duration LEASE = Duration.ofSeconds(2);
    private static final Duration SCAN = Duration.ofMillis(200);

    private EtcdCluster etcd;
    private String prefix;
    private final List<AutoCloseable> open = new ArrayList<>();

    @BeforeAll
    void startCluster() {
        etcd = EtcdCluster.start(3);
    }

    @AfterAll
    void stopCluster() {
        if (etcd != null) {
            etcd.close();
        }
    }

    @BeforeEach
    void prefixPerTest(TestInfo test) {
        prefix = "/shardgate/it-jobs-" + test.getTestMethod().orElseThrow().getName();
    }

    @AfterEach
    void closeAll() throws Exception {
        for (int i = open.size() - 1; i >= 0; i--) {
            open.get(i).close();
        }
        open.clear();
    }

    private EtcdJobStore store() {
        EtcdJobStore store = new EtcdJobStore(new EtcdStoreSettings(etcd.endpoints(), prefix, DIAL, LEASE));
        open.add(store);
        return store;
    }

    private JobRunner runner(JobStore store, String proxyId, JobExecutor executor) {
        JobRunner runner = new JobRunner(store, JobExecutors.none().with(JobKind.RESHARD, executor), proxyId, Clock.systemUTC(), SCAN);
        open.add(runner);
        runner.start();
        return runner;
    }

    private static void until(String what, Duration timeout, BooleanSupplier condition) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("not within " + timeout.toMillis() + " ms: " + what);
            }
            LockSupport.parkNanos(Duration.ofMillis(10).toNanos()); // between checks of the condition
        }
    }

    private static Job reshard() {
        ReshardSpec spec = new ReshardSpec("s1", List.of(
                new ReshardSpec.Target("s1a", "10.0.0.1:3306", List.of(), "innodb", "80-c0"),
                new ReshardSpec.Target("s1b", "10.0.0.3:3306", List.of(), "innodb", "c0-")));
        return Job.create("reshard-s1-20261126-1532-ab12", JobKind.RESHARD, spec.toJson(), "alice", java.time.Instant.now());
    }

    private static long chunk(Job job) {
        return job.checkpoint("copy").map(node -> node.get("chunk").asLong()).orElse(0L);
    }

    @Test
    void aKilledRunnersJobIsTakenByAnotherWithinTheLeaseTtlAndResumesFromItsCheckpoints() {
        EtcdJobStore storeA = store();
        EtcdJobStore storeB = store();
        Job job = reshard();
        assertThat(storeA.create(job)).isInstanceOf(JobWrite.Written.class);
        assertThat(storeB.create(job)).as("one create per id").isInstanceOf(JobWrite.Conflict.class);

        // A copies "chunks" forever, checkpointing each, until it loses its lease.
        JobRunner runnerA = runner(storeA, "proxy-a", context -> {
            context.phase(JobPhase.COPYING);
            for (long chunk = chunk(context.job()) + 1; !context.lostLease(); chunk++) {
                context.checkpoint("copy", JsonNodeFactory.instance.objectNode().put("chunk", chunk));
                LockSupport.parkNanos(Duration.ofMillis(20).toNanos()); // a chunk's work
            }
        });
        until("A checkpoints", Duration.ofSeconds(20), () -> storeB.read(job.id()).map(s -> chunk(s.job()) >= 3).orElse(false));
        assertThat(runnerA.running()).containsExactly(job.id());
        assertThat(storeB.runner(job.id())).contains("proxy-a");

        // B sees the job but leaves it to A while A's lease lives.
        AtomicReference<JsonNode> resumedFrom = new AtomicReference<>();
        JobRunner runnerB = runner(storeB, "proxy-b", context -> {
            resumedFrom.set(context.job().checkpoint("copy").orElse(null));
            context.phase(JobPhase.DONE);
        });
        until("B has seen the job", Duration.ofSeconds(10), () -> runnerB.seen().containsKey(job.id()));
        long seenAt = chunk(storeB.read(job.id()).orElseThrow().job());
        until("A goes on checkpointing while B watches", Duration.ofSeconds(10),
                () -> chunk(storeB.read(job.id()).orElseThrow().job()) >= seenAt + 5);
        assertThat(runnerB.running()).isEmpty();
        assertThat(storeB.runner(job.id())).contains("proxy-a");

        // Kill A: no more keep-alives, no release; its runner key lives until the lease's TTL.
        storeA.abandonForTest();
        runnerA.close();
        long killed = System.nanoTime();
        long lastChunk = chunk(storeB.read(job.id()).orElseThrow().job());
        assertThat(storeB.runner(job.id())).as("A's key outlives it until the TTL").contains("proxy-a");

        until("B finishes the job", LEASE.plus(Duration.ofSeconds(5)),
                () -> storeB.read(job.id()).orElseThrow().job().phase() == JobPhase.DONE);
        long takeoverMillis = (System.nanoTime() - killed) / 1_000_000;
        System.out.printf("EtcdJobRunnerIT: runner A killed at chunk %d; B took the job over and finished it %d ms later "
                + "(lease TTL %d ms, scan every %d ms)%n", lastChunk, takeoverMillis, LEASE.toMillis(), SCAN.toMillis());

        assertThat(resumedFrom.get()).as("B resumes from A's last checkpoint").isNotNull();
        assertThat(resumedFrom.get().get("chunk").asLong()).isEqualTo(lastChunk);
        Job done = storeB.read(job.id()).orElseThrow().job();
        assertThat(done.runner()).isEqualTo("proxy-b");
        assertThat(done.history()).extracting(Job.PhaseChange::phase, Job.PhaseChange::by).containsExactly(
                org.assertj.core.groups.Tuple.tuple(JobPhase.CREATED, "alice"),
                org.assertj.core.groups.Tuple.tuple(JobPhase.COPYING, "proxy-a"),
                org.assertj.core.groups.Tuple.tuple(JobPhase.DONE, "proxy-b"));
        until("B gives the lease up", Duration.ofSeconds(5), () -> storeB.runner(job.id()).isEmpty());
    }

    @Test
    void aRunnerWhoseKeyIsGoneCannotWriteAndOnlyOneRunnerHoldsAJob() {
        EtcdJobStore storeA = store();
        EtcdJobStore storeB = store();
        Job job = reshard();
        long version = ((JobWrite.Written) storeA.create(job)).version();

        RunnerLease a = storeA.tryTakeRunner(job.id(), "proxy-a").orElseThrow();
        assertThat(storeB.tryTakeRunner(job.id(), "proxy-b")).isEmpty();
        JobWrite written = storeA.compareAndSet(version, job.withError("a"), Optional.of(a));
        assertThat(written).isInstanceOf(JobWrite.Written.class);
        long next = ((JobWrite.Written) written).version();
        assertThat(storeA.compareAndSet(version, job.withError("stale"), Optional.of(a)))
                .as("an old version is refused").isInstanceOf(JobWrite.Conflict.class);

        a.close();
        RunnerLease b = storeB.tryTakeRunner(job.id(), "proxy-b").orElseThrow();
        assertThat(storeA.runner(job.id())).contains("proxy-b");
        assertThat(storeA.compareAndSet(next, job.withError("from a"), Optional.of(a)))
                .as("A's writes stop once its runner key is gone, even at the current version").isInstanceOf(JobWrite.Conflict.class);
        assertThat(a.lost()).isTrue();
        assertThat(storeB.compareAndSet(next, job.withError("from b"), Optional.of(b))).isInstanceOf(JobWrite.Written.class);
        assertThat(storeA.read(job.id()).orElseThrow().job().error()).isEqualTo("from b");
        assertThat(storeA.list()).extracting(stored -> stored.job().id()).containsExactly(job.id());
        b.close();
        assertThat(storeA.runner(job.id())).isEmpty();
    }
}
