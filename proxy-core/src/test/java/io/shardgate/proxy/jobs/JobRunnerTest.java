package io.shardgate.proxy.jobs;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

import static org.assertj.core.api.Assertions.assertThat;

/** The runner over the in-memory file store, with executors written for the test. */
class JobRunnerTest {
    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-11-26T16:00:00Z"), ZoneOffset.UTC);
    private final FileJobStore store = new FileJobStore(Optional.empty());
    private final List<JobRunner> runners = new CopyOnWriteArrayList<>();

    @AfterEach
    void close() {
        runners.forEach(JobRunner::close);
        store.close();
    }

    private JobRunner runner(JobExecutors executors) {
        JobRunner runner = new JobRunner(store, executors, "proxy-a", CLOCK, Duration.ofMillis(50));
        runners.add(runner);
        runner.start();
        return runner;
    }

    private Job created() {
        Job job = JobJsonTest.reshard();
        store.create(job);
        return job;
    }

    private Job stored(Job job) {
        return store.read(job.id()).orElseThrow().job();
    }

    /** Waits (10 ms at a time) until {@code condition}; returns false when the job's lease is lost first. */
    private static boolean await(JobContext context, java.util.function.BooleanSupplier condition) {
        while (!condition.getAsBoolean()) {
            if (context.lostLease()) {
                return false;
            }
            LockSupport.parkNanos(Duration.ofMillis(10).toNanos());
        }
        return true;
    }

    @Test
    void takesAJobRunsItsExecutorAndWritesItsProgress() {
        Job job = created();
        runner(JobExecutors.none().with(JobKind.RESHARD, context -> {
            context.phase(JobPhase.COPYING);
            context.update(j -> j.withTable("shop.orders", new Job.TableProgress(10, 10, "10", null, 100, 0L)));
            context.checkpoint("copy", JsonNodeFactory.instance.numberNode(10));
            context.phase(JobPhase.DONE);
        }));
        Eventually.until("the job is done", WAIT, () -> stored(job).phase() == JobPhase.DONE);
        Job done = stored(job);
        assertThat(done.runner()).isEqualTo("proxy-a");
        assertThat(done.tables().get("shop.orders").rowsCopied()).isEqualTo(10);
        assertThat(done.checkpoint("copy").orElseThrow().asInt()).isEqualTo(10);
        assertThat(done.history()).extracting(Job.PhaseChange::phase)
                .containsExactly(JobPhase.CREATED, JobPhase.COPYING, JobPhase.DONE);
        assertThat(done.history().get(1).by()).isEqualTo("proxy-a");
        Eventually.until("the lease is given up", WAIT, () -> store.runner(job.id()).isEmpty());
    }

    @Test
    void anExecutorThatThrowsFailsTheJobWithItsError() {
        Job job = created();
        runner(JobExecutors.none().with(JobKind.RESHARD, context -> {
            context.phase(JobPhase.COPYING);
            throw new IllegalStateException("the source shard's primary refused the snapshot");
        }));
        Eventually.until("the job failed", WAIT, () -> stored(job).phase() == JobPhase.FAILED);
        assertThat(stored(job).error()).isEqualTo("the source shard's primary refused the snapshot");
    }

    @Test
    void aCancelRequestedThroughTheStoreReachesTheExecutorAndEndsCancelled() {
        Job job = created();
        AtomicInteger sawCancel = new AtomicInteger();
        JobRunner runner = runner(JobExecutors.none().with(JobKind.RESHARD, context -> {
            context.phase(JobPhase.COPYING);
            if (await(context, context::cancelled)) {
                sawCancel.incrementAndGet();
                context.phase(JobPhase.CANCELLING);
            }
        }));
        Eventually.until("the job is copying", WAIT, () -> stored(job).phase() == JobPhase.COPYING);
        assertThat(runner.running()).containsExactly(job.id());
        StoredJob copying = store.read(job.id()).orElseThrow();
        // What the API does: a compare-and-set without the lease, racing the runner's writes.
        assertThat(store.compareAndSet(copying.version(), copying.job().withRequestedAction(
                new Job.ActionRequest(JobAction.CANCEL, "bob", CLOCK.instant().toString())), Optional.empty()))
                .isInstanceOf(JobWrite.Written.class);
        Eventually.until("the job is cancelled", WAIT, () -> stored(job).phase() == JobPhase.CANCELLED);
        assertThat(sawCancel).hasValue(1);
        assertThat(stored(job).history()).extracting(Job.PhaseChange::phase)
                .containsExactly(JobPhase.CREATED, JobPhase.COPYING, JobPhase.CANCELLING, JobPhase.CANCELLED);
        Eventually.until("the runner let it go", WAIT, () -> runner.running().isEmpty());
    }

    @Test
    void closingTheRunnerStopsTheExecutorAndGivesTheLeaseUpWithoutFailingTheJob() {
        Job job = created();
        JobRunner runner = runner(JobExecutors.none().with(JobKind.RESHARD, context -> {
            context.phase(JobPhase.COPYING);
            await(context, () -> false);
            context.phase(JobPhase.DONE); // must not be written: the lease is gone
        }));
        Eventually.until("the job is copying", WAIT, () -> stored(job).phase() == JobPhase.COPYING);
        runner.close();
        assertThat(store.runner(job.id())).isEmpty();
        assertThat(stored(job).phase()).isEqualTo(JobPhase.COPYING);

        // Another runner (a restarted proxy) takes it and resumes.
        runner(JobExecutors.none().with(JobKind.RESHARD, context -> context.phase(JobPhase.DONE)));
        Eventually.until("the second runner finishes it", WAIT, () -> stored(job).phase() == JobPhase.DONE);
    }

    @Test
    void aJobOfAKindWithoutAnExecutorWaitsAndATerminalJobIsNotRun() {
        Job job = created();
        Job done = JobJsonTest.reshard().withPhase(JobPhase.DONE, "x", Instant.EPOCH);
        Job finished = new Job("reshard-s1-done", done.kind(), done.spec(), done.phase(), null, null, null, null, null,
                null, null, null, null, null, done.history(), null);
        store.create(finished);
        AtomicInteger runs = new AtomicInteger();
        JobRunner runner = runner(JobExecutors.none().with(JobKind.MOVE, context -> runs.incrementAndGet()));
        Eventually.until("the runner has seen both jobs", WAIT, () -> runner.seen().size() == 2);
        assertThat(runs).hasValue(0);
        assertThat(store.runner(job.id())).isEmpty();
        assertThat(stored(job).phase()).isEqualTo(JobPhase.CREATED);
    }

    @Test
    void anExecutorThatReturnsEarlyFailsTheJob() {
        Job job = created();
        runner(JobExecutors.none().with(JobKind.RESHARD, context -> context.phase(JobPhase.COPYING)));
        Eventually.until("the job failed", WAIT, () -> stored(job).phase() == JobPhase.FAILED);
        assertThat(stored(job).error()).isEqualTo("the reshard executor stopped in phase copying");
    }
}
