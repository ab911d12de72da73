package io.shardgate.proxy.sharding;

import io.shardgate.router.schema.ColumnCatalog;
import io.shardgate.router.schema.SchemaRules;
import io.shardgate.router.schema.SchemaSnapshot;
import io.shardgate.router.schema.ShardingSchema;
import io.shardgate.router.schema.TableColumns;
import io.shardgate.router.schema.TableRule;
import io.shardgate.router.schema.UnshardedTable;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import static java.util.Objects.requireNonNull;

/**
 * The columns of every table of the sharded schemas, as each shard reports them ({@link ColumnSource}: its
 * primary's {@code information_schema.COLUMNS} over the control plane), kept in an immutable
 * {@link SchemaSnapshot} that the planner reads without I/O ({@link ColumnCatalog}).
 *
 * <p>Loaded at {@link #start}, before the proxy serves; again after every DDL that went through the proxy
 * ({@link #reloadAll()}, on the plan worker, before the DDL's answer, so the next statement plans with the
 * new columns); and by a periodic check on a daemon thread of its own, which catches DDL run on a shard
 * directly. A shard that cannot be read keeps what was last read from it (nothing, if it was down at
 * startup) and does not stop the proxy: the check retries it, and so does a lookup of a table nobody has
 * reported yet (on the same thread, never the caller's). Each load that changes the snapshot tells the
 * {@linkplain #onChange listeners} (the plan cache drops its plans).
 *
 * <p>Only tables the sharding schema lists are kept, and only from the shards that hold them: sharded and
 * reference tables from every shard, an unsharded table from its own.
 */
public final class SchemaTracker implements ColumnCatalog, AutoCloseable {
    private static final System.Logger LOG = System.getLogger(SchemaTracker.class.getName());

    /** Where a shard's columns come from. */
    public interface ColumnSource {
        /** The tables of {@code schemas} on {@code shard}, with their columns. */
        List<TableColumns> load(String shard, List<String> schemas) throws Exception;
    }

    private volatile ShardingSchema rules;
    private final ColumnSource source;
    private final List<String> schemas;
    private final AtomicReference<SchemaSnapshot> current;
    /** Shards read at least once. */
    private final Set<String> loaded = ConcurrentHashMap.newKeySet();
    /** Why each shard's last load failed; absent after a load that succeeded. */
    private final Map<String, String> failures = new ConcurrentHashMap<>();
    private final List<Runnable> listeners = new CopyOnWriteArrayList<>();
    private final ScheduledExecutorService loop;
    private final AtomicBoolean retryQueued = new AtomicBoolean();

    public SchemaTracker(ShardingSchema rules, ColumnSource source) {
        this.rules = requireNonNull(rules, "rules is null");
        this.source = requireNonNull(source, "source is null");
        this.schemas = rules.schemas().stream().map(SchemaRules::name).toList();
        this.current = new AtomicReference<>(SchemaSnapshot.empty(rules.shardNames()));
        this.loop = Executors.newSingleThreadScheduledExecutor(task -> {
            Thread thread = new Thread(task, "shardgate-schema");
            thread.setDaemon(true);
            return thread;
        });
    }

    /** Calls {@code listener} after each load that changed the snapshot (on the thread that loaded). */
    public void onChange(Runnable listener) {
        listeners.add(requireNonNull(listener, "listener is null"));
    }

    /** Loads every shard now, then every {@code interval} on the tracker's thread (zero: no periodic check). */
    public void start(Duration interval) {
        reloadAll();
        if (!interval.isZero()) {
            loop.scheduleWithFixedDelay(this::reloadAll, interval.toMillis(), interval.toMillis(), TimeUnit.MILLISECONDS);
        }
    }

    /** Reads every shard's tables again; a shard that fails keeps its last columns. Never throws. */
    public synchronized void reloadAll() {
        SchemaSnapshot next = current.get();
        for (String shard : rules.shardNames()) {
            try {
                List<TableColumns> tables = source.load(shard, schemas).stream().filter(t -> holds(shard, t)).toList();
                next = next.withShard(shard, schemas, tables);
                loaded.add(shard);
                failures.remove(shard);
            } catch (Exception e) {
                String why = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
                if (!why.equals(failures.put(shard, why))) {
                    LOG.log(System.Logger.Level.WARNING, "cannot read the columns of shard " + shard + "'s tables; the schema check retries: "
                            + why);
                }
            }
        }
        SchemaSnapshot previous = current.getAndSet(next);
        if (!previous.equals(next)) {
            LOG.log(System.Logger.Level.DEBUG, "table columns changed: " + next);
            listeners.forEach(Runnable::run);
        }
    }

    /** Whether the sharding schema puts {@code table} on {@code shard}. */
    private boolean holds(String shard, TableColumns table) {
        Optional<TableRule> rule = rules.schema(table.schema()).flatMap(r -> r.table(table.table()));
        return rule.isPresent() && (!(rule.get() instanceof UnshardedTable unsharded) || unsharded.shard().equals(shard));
    }

    @Override
    public Optional<TableColumns> columns(String schema, String table) {
        Optional<TableColumns> columns = current.get().columns(schema, table);
        if (columns.isEmpty() && loaded.size() < rules.shardNames().size()) {
            retrySoon();
        }
        return columns;
    }

    @Override
    public Optional<String> conflict(String schema, String table) {
        return current.get().conflict(schema, table);
    }

    /** A reload on the tracker's thread, unless one is already queued; for a shard never read yet. */
    private void retrySoon() {
        if (retryQueued.compareAndSet(false, true)) {
            try {
                loop.execute(() -> {
                    retryQueued.set(false);
                    reloadAll();
                });
            } catch (RejectedExecutionException e) {
                retryQueued.set(false);
            }
        }
    }

    /** What was last read. */
    public SchemaSnapshot snapshot() {
        return current.get();
    }

    public ShardingSchema rules() {
        return rules;
    }

    /**
     * A cutover gave keys or tables to other shards ({@code next}): the shards that hold them are read from now on,
     * starting at once on the tracker's thread (not the caller's: a cutover's writes wait while it applies).
     */
    public void switchTo(ShardingSchema next) {
        synchronized (this) {
            rules = requireNonNull(next, "next is null");
        }
        try {
            loop.execute(this::reloadAll);
        } catch (RejectedExecutionException e) {
            LOG.log(System.Logger.Level.DEBUG, "schema tracker closed: " + e.getMessage());
        }
    }

    /** Whether {@code shard} was read at least once. */
    public boolean loaded(String shard) {
        return loaded.contains(shard);
    }

    /** Why a shard's last load failed, for the shards whose last load failed. */
    public Map<String, String> failures() {
        return Map.copyOf(failures);
    }

    @Override
    public void close() {
        loop.shutdownNow();
    }
}
