package io.shardgate.replication.copy;

import io.shardgate.replication.gtid.MariaDbGtidPosition;
import io.shardgate.replication.gtid.SnapshotPoint;
import io.shardgate.replication.stream.ChangeStream;
import io.shardgate.replication.stream.ServerEndpoint;
import io.shardgate.replication.stream.TableFilter;
import io.shardgate.replication.stream.apply.JdbcApplyTarget;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

/**
 * One change stream per target from the source, each filtered to the rows its target holds
 * ({@link CatchUpScope}). {@link #catchUp} runs them from one position to another and returns;
 * {@link #start} keeps them running after the copy, as a handle the caller stops, asks for each
 * target's applied position and lag, and waits on for a source GTID ({@link #awaitPosition}, what
 * the cutover does with the GTID it records).
 */
public final class CopyStreams implements AutoCloseable {
    static final int CATCH_UP_ATTEMPTS = 3;
    private final Map<String, ChangeStream> streams;
    private final List<Thread> threads;
    private final AtomicReference<Throwable> failure;

    private CopyStreams(Map<String, ChangeStream> streams, List<Thread> threads, AtomicReference<Throwable> failure) {
        this.streams = streams;
        this.threads = threads;
        this.failure = failure;
    }

    static ChangeStream stream(ServerEndpoint source, CopyTarget target, Map<String, TableShape> shapes,
                               CatchUpScope scope, SnapshotPoint from, MariaDbGtidPosition until, int workers,
                               Consumer<String> notices) {
        Set<String> schemas = new TreeSet<>();
        shapes.values().forEach(shape -> schemas.add(shape.table().schema()));
        ChangeStream.Builder builder = ChangeStream.builder()
                .source(source)
                .target(new ScopedApplyTarget(new JdbcApplyTarget(target.endpoint()), scope))
                .tables(new TableFilter(schemas, Set.of(), shapes.keySet(), Set.of()))
                .rowFilter(scope.filter())
                .workers(workers)
                .notices(message -> notices.accept(target.name() + ": " + message));
        if (from != null) {
            builder.fromSnapshot(from);
        }
        if (until != null) {
            builder.untilGtid(until);
        }
        return builder.build();
    }

    /**
     * Applies {@code from..until} to every target in parallel, each in its {@code scopes} entry; returns when all did.
     * Every target holds what the snapshot at {@code from} showed of the rows in its scope.
     * A failed catch-up runs again, up to {@value #CATCH_UP_ATTEMPTS} times in all (a connection the loaded source
     * dropped): what a target applied is skipped the next time, by its stored positions.
     */
    static void catchUp(ServerEndpoint source, List<CopyTarget> targets, Map<String, TableShape> shapes,
                        Map<String, CatchUpScope> scopes, SnapshotPoint from, MariaDbGtidPosition until,
                        int workers, Consumer<String> notices) throws InterruptedException {
        Map<String, SnapshotPoint> each = new java.util.HashMap<>();
        targets.forEach(target -> each.put(target.name(), from));
        catchUpEach(source, targets, shapes, scopes, each, until, workers, notices);
    }

    /** {@link #catchUp} with each target from its own entry of {@code from} (null: its stored watermark), all in parallel. */
    static void catchUpEach(ServerEndpoint source, List<CopyTarget> targets, Map<String, TableShape> shapes,
                            Map<String, CatchUpScope> scopes, Map<String, SnapshotPoint> from, MariaDbGtidPosition until,
                            int workers, Consumer<String> notices) throws InterruptedException {
        for (int attempt = 1; ; attempt++) {
            try {
                catchUpOnce(source, targets, shapes, scopes, from, until, workers, notices);
                return;
            } catch (CopyException e) {
                if (attempt >= CATCH_UP_ATTEMPTS) {
                    throw e;
                }
                notices.accept(e.getMessage() + "; trying again (" + attempt + " of " + CATCH_UP_ATTEMPTS + ")");
                Thread.sleep(1000L * attempt);
            }
        }
    }

    private static void catchUpOnce(ServerEndpoint source, List<CopyTarget> targets, Map<String, TableShape> shapes,
                                    Map<String, CatchUpScope> scopes, Map<String, SnapshotPoint> from,
                                    MariaDbGtidPosition until, int workers, Consumer<String> notices)
            throws InterruptedException {
        Map<String, ChangeStream> streams = new LinkedHashMap<>();
        for (CopyTarget target : targets) {
            streams.put(target.name(), stream(source, target, shapes, scopes.get(target.name()), from.get(target.name()),
                    until, workers, notices));
        }
        try (CopyStreams running = launch(streams)) {
            running.join();
            Throwable failed = running.failure.get();
            if (failed != null) {
                throw new CopyException("catching up from " + new java.util.TreeMap<>(from) + " to " + until + " failed: "
                        + failed.getMessage(),
                        failed);
            }
        }
    }

    /** Starts one endless stream per target from {@code from}; every table is copied (scopes without bounds). */
    public static CopyStreams start(ServerEndpoint source, List<CopyTarget> targets, Map<String, TableShape> shapes,
                                    Map<String, CatchUpScope> scopes, SnapshotPoint from, int workers,
                                    Consumer<String> notices) {
        Map<String, ChangeStream> streams = new LinkedHashMap<>();
        for (CopyTarget target : targets) {
            streams.put(target.name(), stream(source, target, shapes, scopes.get(target.name()), from, null, workers,
                    notices));
        }
        return launch(streams);
    }

    /**
     * Runs {@code streams} (by name), each on a thread of its own, as one handle: the first that fails stops the others.
     * A reshard's reverse streams, one from each target back into the source, run this way.
     */
    public static CopyStreams launch(Map<String, ChangeStream> streams) {
        AtomicReference<Throwable> failure = new AtomicReference<>();
        List<Thread> threads = new ArrayList<>();
        for (Map.Entry<String, ChangeStream> entry : streams.entrySet()) {
            Thread thread = new Thread(() -> {
                try {
                    entry.getValue().run();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                } catch (RuntimeException e) {
                    failure.compareAndSet(null, new CopyException("target " + entry.getKey() + ": " + e.getMessage(), e));
                    streams.values().forEach(ChangeStream::stop);
                }
            }, "copy-stream-" + entry.getKey());
            thread.setDaemon(true);
            thread.start();
            threads.add(thread);
        }
        return new CopyStreams(Map.copyOf(streams), List.copyOf(threads), failure);
    }

    private void join() throws InterruptedException {
        for (Thread thread : threads) {
            thread.join();
        }
    }

    /** Each target's applied position: every source transaction up to it is applied there or not for it. */
    public Map<String, MariaDbGtidPosition> applied() {
        Map<String, MariaDbGtidPosition> applied = new LinkedHashMap<>();
        streams.forEach((name, stream) -> applied.put(name, stream.progress().applied()));
        return applied;
    }

    /** The largest apply lag of the targets' streams, in seconds. */
    public double lagSeconds() {
        double lag = 0;
        for (ChangeStream stream : streams.values()) {
            lag = Math.max(lag, stream.progress().lagSeconds());
        }
        return lag;
    }

    /** Why a stream stopped on its own; null while all run. */
    public Throwable failure() {
        return failure.get();
    }

    /**
     * Waits until every target applied {@code position} (a source GTID the cutover recorded); false
     * when {@code timeout} passed first. Throws when a stream failed.
     */
    public boolean awaitPosition(MariaDbGtidPosition position, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            if (failure.get() != null) {
                throw new CopyException("a stream failed before reaching " + position + ": " + failure.get().getMessage(),
                        failure.get());
            }
            if (applied().values().stream().allMatch(applied -> applied.hasReached(position))) {
                return true;
            }
            if (System.nanoTime() >= deadline) {
                return false;
            }
            Thread.sleep(20);
        }
    }

    /**
     * Waits until each stream applied its own entry of {@code positions} (by stream name: streams from different
     * sources); false when {@code timeout} passed first. Throws when a stream failed.
     */
    public boolean awaitPositions(Map<String, MariaDbGtidPosition> positions, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            if (failure.get() != null) {
                throw new CopyException("a stream failed before reaching " + positions + ": " + failure.get().getMessage(),
                        failure.get());
            }
            Map<String, MariaDbGtidPosition> applied = applied();
            if (positions.entrySet().stream().allMatch(wanted -> applied.containsKey(wanted.getKey())
                    && applied.get(wanted.getKey()).hasReached(wanted.getValue()))) {
                return true;
            }
            if (System.nanoTime() >= deadline) {
                return false;
            }
            Thread.sleep(20);
        }
    }

    /** Stops every stream at a transaction boundary and waits for them. */
    public void stop() throws InterruptedException {
        streams.values().forEach(ChangeStream::stop);
        join();
    }

    @Override
    public void close() {
        try {
            stop();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
