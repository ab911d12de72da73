package io.shardgate.replication.stream.apply;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.shardgate.replication.gtid.MariaDbGtidPosition;
import io.shardgate.replication.stream.Change;
import io.shardgate.replication.stream.DdlChange;
import io.shardgate.replication.stream.RowChange;
import io.shardgate.replication.stream.RowFilter;
import io.shardgate.replication.stream.StreamException;
import io.shardgate.replication.stream.Transaction;

import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingDeque;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

import static java.util.Objects.requireNonNull;

/**
 * Applies committed source transactions to a target on N workers, keeping each schema's commit order.
 *
 * <p><b>Scheduling.</b> Each schema is owned by one worker (assigned on first sight to the worker
 * with the fewest schemas) and its transactions go, in source order, into that worker's queue; so
 * a worker's queue is the ordered merge of its schemas' queues. A worker takes consecutive
 * transactions from its queue (up to {@link Settings#maxBatchTransactions()} and
 * {@link Settings#maxBatchRows()}) and applies them as one target transaction together with
 * their schemas' positions.
 *
 * <p><b>Barriers.</b> A transaction that touches several schemas, or holds DDL, is applied by the
 * submitting thread itself once every involved schema has nothing queued or running (every
 * schema for database-level DDL); nothing else is dispatched meanwhile, so it runs alone with
 * respect to its schemas and later transactions of those schemas follow it.
 *
 * <p><b>Exactly once.</b> Transactions that the target's stored positions show as applied for a
 * schema lose that schema's changes before scheduling; {@link WatermarkTracker} gives the
 * position below which everything is done, saved every {@link Settings#checkpointEvery()} ms and
 * on close, where a restart reads from. An XA PREPARE holds it back until the XA transaction ends.
 *
 * <p>{@link #submit} is called from one thread (the reader's), and blocks while the chosen
 * worker's queue is full: backpressure reaches the binlog connection.
 */
public final class ParallelApplier implements AutoCloseable {
    /** Tunables; see {@link #defaults()}. */
    public record Settings(int workers, int maxBatchTransactions, int maxBatchRows, int queueCapacity, int maxRetries,
                           long retryPauseMillis, long checkpointEvery) {
        public Settings {
            if (workers < 1 || maxBatchTransactions < 1 || maxBatchRows < 1 || queueCapacity < 1 || maxRetries < 0) {
                throw new IllegalArgumentException("applier settings must be positive: " + workers + " workers, batch "
                        + maxBatchTransactions + " tx / " + maxBatchRows + " rows, queue " + queueCapacity);
            }
        }

        public static Settings defaults() {
            return new Settings(4, 50, 2000, 1000, 10, 200, 1000);
        }

        public Settings withWorkers(int n) {
            return new Settings(n, maxBatchTransactions, maxBatchRows, queueCapacity, maxRetries, retryPauseMillis, checkpointEvery);
        }
    }

    private final ApplyTarget target;
    private final Settings settings;
    private final RowFilter rowFilter;
    private final Clock clock;
    private final Counter transactions;
    private final Counter rows;
    private final Counter retries;
    private final Counter checkpointRetries;
    private final AtomicLong lagSeconds = new AtomicLong();
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private final CountDownLatch stopping = new CountDownLatch(1);
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private final Map<String, Integer> inFlight = new HashMap<>();
    private final Map<String, ApplyWorker> owners = new HashMap<>();
    private final List<ApplyWorker> workers = new ArrayList<>();
    private final MeterRegistry registry;

    private AppliedPositions positions;
    private volatile WatermarkTracker tracker; // set by start(); progress reports read it from other threads
    private SessionHolder barrierSession;
    private WatermarkSaver checkpointer;
    private volatile Runnable whenFailed = () -> { };

    public ParallelApplier(ApplyTarget target, Settings settings, RowFilter rowFilter, MeterRegistry registry, Clock clock) {
        this.target = requireNonNull(target, "target is null");
        this.settings = requireNonNull(settings, "settings is null");
        this.rowFilter = requireNonNull(rowFilter, "rowFilter is null");
        this.registry = requireNonNull(registry, "registry is null");
        this.clock = requireNonNull(clock, "clock is null");
        this.transactions = Counter.builder("shardgate.stream.transactions.applied").register(registry);
        this.rows = Counter.builder("shardgate.stream.rows.applied").register(registry);
        this.retries = Counter.builder("shardgate.stream.retries").tag("kind", "apply").register(registry);
        this.checkpointRetries = Counter.builder("shardgate.stream.retries").tag("kind", "checkpoint").register(registry);
        Gauge.builder("shardgate.stream.apply.lag.seconds", lagSeconds, AtomicLong::get).description("seconds between the source"
                + " commit of the last applied transaction and its apply, 0 when idle").register(registry);
    }

    /** Reads the target's positions, opens one session per worker and starts them. */
    public AppliedPositions start() {
        return start(null, null);
    }

    /**
     * {@link #start()} for a stream that reads from {@code readFrom} (null: the stored watermark), which is then where
     * its watermark starts; with {@code snapshot} (null: none), every transaction up to it is in the target already
     * (it was loaded from a consistent snapshot there): that floor is stored first, so no later stream applies them.
     */
    public AppliedPositions start(MariaDbGtidPosition readFrom, MariaDbGtidPosition snapshot) {
        positions = target.load();
        barrierSession = new SessionHolder(target);
        if (snapshot != null && !snapshot.isEmpty()) {
            positions = positions.withFloor(snapshot);
            target.saveFloor(positions.floor());
        }
        MariaDbGtidPosition start = readFrom != null ? readFrom : positions.watermark();
        tracker = new WatermarkTracker(start);
        // Saved once it moves: a start position the source never wrote (the reader refuses it) is not stored.
        checkpointer = new WatermarkSaver(target, tracker, start, settings.checkpointEvery(), stopping, checkpointRetries,
                this::fail);
        for (int i = 0; i < settings.workers(); i++) {
            ApplyWorker worker = new ApplyWorker(this, settings, stopping, i);
            workers.add(worker);
            Gauge.builder("shardgate.stream.queue.depth", worker.queue, LinkedBlockingDeque::size)
                    .tag("worker", Integer.toString(i)).register(registry);
        }
        workers.forEach(ApplyWorker::start);
        checkpointer.start();
        return positions;
    }

    /** Everything up to here is applied (or not for this target); where a restart reads from. */
    public MariaDbGtidPosition watermark() {
        WatermarkTracker started = tracker; // a progress report may come before start() read the target's positions
        return started == null ? MariaDbGtidPosition.empty() : started.watermark();
    }

    /** Runs {@code action} once, on the failing thread, when the applier stops on an error (the reader may wait on an idle source). */
    public void whenFailed(Runnable action) {
        this.whenFailed = requireNonNull(action, "action is null");
    }

    /** The error that stopped the applier, or null. */
    public Throwable failure() {
        return failure.get();
    }

    /** Hands on one source transaction, in source commit order. */
    public void submit(Transaction transaction) throws InterruptedException {
        requireNonNull(transaction, "transaction is null");
        throwIfFailed();
        List<Change> kept = pending(transaction);
        Transaction todo = kept.size() == transaction.changes().size() ? transaction : transaction.withChanges(kept);
        if (transaction.xaPrepared()) {
            tracker.prepareXa(transaction.gtid()); // done with the XA's end: a restart reads the prepare again
            return;
        }
        long ticket = tracker.register(transaction.gtid());
        Long prepare = tracker.endXa(transaction.completesXa());
        if (todo.changes().isEmpty()) {
            tracker.done(ticket, prepare);
            return;
        }
        Set<String> schemas = todo.schemas();
        Item item = new Item(todo, ticket, schemas, prepare);
        if (todo.hasDdl() || schemas.size() > 1) {
            awaitDrained(todo.isGlobalBarrier() ? null : schemas);
            applyWithRetry(barrierSession, List.of(item));
            finished(List.of(item));
            return;
        }
        String schema = schemas.iterator().next();
        ApplyWorker worker = owner(schema);
        lock.lock();
        try {
            inFlight.merge(schema, 1, Integer::sum);
        } finally {
            lock.unlock();
        }
        while (!worker.queue.offerLast(item, 100, TimeUnit.MILLISECONDS)) {
            throwIfFailed();
        }
    }

    /** Waits until everything submitted is applied; throws the applier's failure. */
    public void awaitIdle() throws InterruptedException {
        lock.lock();
        try {
            while (tracker.unapplied() > 0 && failure.get() == null) {
                changed.await(100, TimeUnit.MILLISECONDS);
            }
        } finally {
            lock.unlock();
        }
        throwIfFailed();
    }

    /** The changes of {@code transaction} this target still needs: filtered rows, schemas not yet applied. */
    private List<Change> pending(Transaction transaction) {
        List<Change> kept = new ArrayList<>(transaction.changes().size());
        for (Change change : transaction.changes()) {
            if (change instanceof RowChange row) {
                if (!positions.isApplied(row.schema(), transaction.gtid()) && rowFilter.keep(row)) {
                    kept.add(row);
                }
            } else if (change instanceof DdlChange ddl) {
                boolean applied = ddl.schemas().stream().anyMatch(s -> positions.isApplied(s, transaction.gtid()));
                if (!applied) {
                    kept.add(ddl);
                }
            }
        }
        return kept;
    }

    private ApplyWorker owner(String schema) {
        ApplyWorker owner = owners.get(schema);
        if (owner == null) {
            owner = workers.get(0);
            for (ApplyWorker worker : workers) {
                if (worker.schemas < owner.schemas) {
                    owner = worker;
                }
            }
            owner.schemas++;
            owners.put(schema, owner);
        }
        return owner;
    }

    /** Waits until {@code schemas} (null: every schema) have nothing queued or running. */
    private void awaitDrained(Set<String> schemas) throws InterruptedException {
        lock.lock();
        try {
            while (failure.get() == null && !drained(schemas)) {
                changed.await(100, TimeUnit.MILLISECONDS);
            }
        } finally {
            lock.unlock();
        }
        throwIfFailed();
    }

    private boolean drained(Set<String> schemas) {
        if (schemas == null) {
            return inFlight.values().stream().allMatch(n -> n == 0);
        }
        return schemas.stream().allMatch(s -> inFlight.getOrDefault(s, 0) == 0);
    }

    private void finished(List<Item> batch) {
        long now = clock.millis() / 1000;
        lock.lock();
        try {
            for (Item item : batch) {
                tracker.done(item.ticket, item.prepare);
                transactions.increment();
                rows.increment(item.transaction.rowCount());
                lagSeconds.set(Math.max(0, now - item.transaction.commitSeconds()));
            }
            if (tracker.pending() == 0) {
                lagSeconds.set(0);
            }
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    void applyWithRetry(SessionHolder session, List<Item> batch) throws InterruptedException {
        List<Transaction> transactions = batch.stream().map(Item::transaction).toList();
        for (int attempt = 0; ; attempt++) {
            try {
                session.get().apply(transactions);
                return;
            } catch (ApplyException e) {
                if (!e.retryable() || attempt >= settings.maxRetries()) {
                    throw e;
                }
                retries.increment();
                session.reopen();
                long pause = Math.min(settings.retryPauseMillis() * (attempt + 1), 2000);
                if (stopping.await(pause, TimeUnit.MILLISECONDS)) {
                    throw e;
                }
            }
        }
    }

    /** A worker applied {@code batch}: its schemas have that much less in flight. */
    void release(List<Item> batch) {
        lock.lock();
        try {
            for (Item item : batch) {
                for (String schema : item.schemas) {
                    inFlight.merge(schema, -1, Integer::sum);
                }
            }
        } finally {
            lock.unlock();
        }
        finished(batch);
    }

    /** A session on the target, for a worker. */
    SessionHolder newSession() {
        return new SessionHolder(target);
    }

    void fail(Throwable e) {
        if (failure.compareAndSet(null, e)) {
            stopping.countDown();
            whenFailed.run();
        }
        lock.lock();
        try {
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    private void throwIfFailed() {
        Throwable e = failure.get();
        if (e instanceof StreamException stream) {
            throw stream;
        }
        if (e != null) {
            throw new StreamException("the applier stopped: " + e, e);
        }
    }

    /**
     * Stops after each worker's current batch (queued transactions are not applied; a restart
     * reads them again) and saves the watermark.
     */
    @Override
    public void close() {
        stopping.countDown();
        for (ApplyWorker worker : workers) {
            try {
                worker.thread.join(60_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        if (checkpointer != null) {
            checkpointer.join();
        }
        if (barrierSession != null && checkpointer != null) {
            try {
                checkpointer.save(barrierSession.get());
            } catch (RuntimeException e) {
                failure.compareAndSet(null, e);
            }
            barrierSession.close();
        }
    }

    /** A transaction as queued: its ticket with the watermark tracker, the schemas it touches, its XA PREPARE's ticket. */
    record Item(Transaction transaction, long ticket, Set<String> schemas, Long prepare) {
    }
}
