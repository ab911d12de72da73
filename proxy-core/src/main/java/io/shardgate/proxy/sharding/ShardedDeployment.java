package io.shardgate.proxy.sharding;

import io.shardgate.proxy.execution.ColumnCollations;
import io.shardgate.proxy.config.RoutingConfig;
import io.shardgate.proxy.config.TransactionsConfig;
import io.shardgate.proxy.routing.ReplicaRead;
import io.shardgate.proxy.routing.ShardBackends;
import io.shardgate.proxy.sharding.xa.XaTransactions;
import io.shardgate.router.plan.Plan;
import io.shardgate.router.plan.SequenceSource;
import io.shardgate.router.planner.Planner;
import io.shardgate.router.schema.ShardingSchema;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static java.util.Objects.requireNonNull;

/**
 * A sharded deployment at run time: the sharding schema and its planner (with a plan cache), every
 * shard's backends, the global sequences, how cross-shard transactions commit, and the threads that
 * run plans. Plans are pull-based (an operator blocks until a shard sends rows), so each running
 * sharded statement has a worker thread; a session runs one statement at a time, so there are never
 * more workers than client sessions.
 */
public final class ShardedDeployment implements AutoCloseable {
    /** The shard map and its plans, swapped whole when a cutover gives keys to other shards. */
    private record ShardMap(ShardingSchema schema, PlanCache plans) {
    }

    private volatile ShardMap map;
    /** Per shard given keys by a cutover: the shards that had them before (a session's writes there must be seen). */
    private volatile Map<String, java.util.Set<String>> inherited = Map.of();
    private final Map<String, ShardBackends> shards;
    private final WriteHolds holds;
    private final SequenceSource sequences;
    private final TransactionsConfig transactions;
    private final java.util.function.Supplier<RoutingConfig> routing;
    private final long maxBufferedRows;
    private final ExecutorService workers;
    private final XaTransactions xa;
    private final ColumnCollations collations;
    private final ReplicaRead replicaRead;
    private final SchemaTracker columns;

    public ShardedDeployment(ShardingSchema schema, List<ShardBackends> shards, SequenceSource sequences, XaTransactions xa,
                             TransactionsConfig transactions, RoutingConfig routing, long maxBufferedRows, int maxSessions) {
        this(schema, shards, sequences, xa, ColumnCollations.asReported(), transactions, () -> routing, maxBufferedRows, maxSessions,
                new SchemaTracker(schema, (shard, schemas) -> List.of()));
    }

    /** {@code columns}: the tables' columns, which the planner reads; when they change, the cached plans are dropped. */
    ShardedDeployment(ShardingSchema schema, List<ShardBackends> shards, SequenceSource sequences, XaTransactions xa,
                      ColumnCollations collations, TransactionsConfig transactions,
                      java.util.function.Supplier<RoutingConfig> routing, long maxBufferedRows,
                      int maxSessions, SchemaTracker columns) {
        this.collations = collations;
        requireNonNull(schema, "schema is null");
        this.columns = requireNonNull(columns, "columns is null");
        this.map = new ShardMap(schema, new PlanCache(new Planner(schema, columns), 4096));
        columns.onChange(() -> map.plans().invalidate());
        Map<String, ShardBackends> byName = new LinkedHashMap<>();
        for (ShardBackends shard : shards) {
            byName.put(shard.shard(), shard);
        }
        for (String name : schema.shardNames()) {
            if (!byName.containsKey(name)) {
                throw new IllegalArgumentException("the sharding schema names shard " + name + ", which has no backends");
            }
        }
        this.shards = new java.util.concurrent.ConcurrentHashMap<>(byName);
        this.holds = new WriteHolds(Math.max(1, maxSessions), System::currentTimeMillis);
        this.sequences = requireNonNull(sequences, "sequences is null");
        this.xa = requireNonNull(xa, "xa is null");
        this.transactions = requireNonNull(transactions, "transactions is null");
        this.routing = requireNonNull(routing, "routing is null");
        this.replicaRead = new ReplicaRead(routing, () -> { });
        this.maxBufferedRows = maxBufferedRows;
        AtomicInteger threads = new AtomicInteger();
        this.workers = new ThreadPoolExecutor(0, Math.max(1, maxSessions), 60, TimeUnit.SECONDS, new SynchronousQueue<>(), task -> {
            Thread thread = new Thread(task, "shardgate-plan-" + threads.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        });
    }

    /** The plan of {@code sql} in {@code currentSchema} (cached); throws the planner's refusal. */
    public Plan plan(String sql, String currentSchema) {
        return map.plans().plan(sql, currentSchema);
    }

    public ShardingSchema schema() {
        return map.schema();
    }

    /** The writes a cutover holds on this proxy. */
    public WriteHolds holds() {
        return holds;
    }

    /** A shard added live (it owns no keys until a cutover gives it some). */
    public void addShard(ShardBackends backends) {
        shards.putIfAbsent(backends.shard(), backends);
    }

    /** A shard removed live: it owns no keys in the shard map (the topology refuses to remove one that does). */
    public synchronized void removeShard(String name) {
        if (map.schema().shardNames().contains(name)) {
            throw new IllegalStateException("shard " + name + " owns keys in the shard map; it cannot be removed");
        }
        shards.remove(name);
    }

    /**
     * A cutover moved keys: statements are planned against {@code next} from now on (a statement planned before
     * finishes where it was sent). Every shard {@code next} names must have its backends here already.
     */
    public synchronized void switchTo(ShardingSchema next) {
        for (String name : next.shardNames()) {
            if (!shards.containsKey(name)) {
                throw new IllegalArgumentException("the new shard map names shard " + name + ", which has no backends here");
            }
        }
        inherited = inherit(inherited, map.schema(), next);
        map = new ShardMap(next, new PlanCache(new Planner(next, columns), 4096));
        columns.switchTo(next);
    }

    /**
     * {@code known} and, for each shard of {@code next} whose range is new, the shards of {@code previous} whose range is
     * gone; for each unsharded table that moved, its old shard under its new one.
     */
    static Map<String, java.util.Set<String>> inherit(Map<String, java.util.Set<String>> known, ShardingSchema previous,
                                                     ShardingSchema next) {
        Map<String, java.util.Set<String>> gained = new java.util.HashMap<>(known);
        for (io.shardgate.router.schema.Shard shard : next.shards()) {
            if (!previous.shards().contains(shard)) {
                java.util.Set<String> from = new java.util.HashSet<>(gained.getOrDefault(shard.name(), java.util.Set.of()));
                previous.shards().stream().filter(old -> !next.shards().contains(old)).forEach(old -> from.add(old.name()));
                from.remove(shard.name());
                gained.put(shard.name(), java.util.Set.copyOf(from));
            }
        }
        // A table move: the table's new shard inherits from its old one.
        for (io.shardgate.router.schema.SchemaRules schema : previous.schemas()) {
            for (io.shardgate.router.schema.TableRule rule : schema.tables()) {
                if (rule instanceof io.shardgate.router.schema.UnshardedTable before
                        && next.schema(schema.name()).flatMap(rules -> rules.table(rule.name())).orElse(null)
                        instanceof io.shardgate.router.schema.UnshardedTable after && !before.shard().equals(after.shard())) {
                    java.util.Set<String> from = new java.util.HashSet<>(gained.getOrDefault(after.shard(), java.util.Set.of()));
                    from.add(before.shard());
                    gained.put(after.shard(), java.util.Set.copyOf(from));
                }
            }
        }
        return Map.copyOf(gained);
    }

    /**
     * The shards whose keys (some of them) a cutover gave to {@code shard}: a session that wrote there reads
     * {@code shard} on its primary, since its replicas' positions say nothing of those writes.
     */
    java.util.Set<String> inheritedFrom(String shard) {
        Map<String, java.util.Set<String>> now = inherited;
        return now.isEmpty() ? java.util.Set.of() : now.getOrDefault(shard, java.util.Set.of());
    }

    /** What the deployment knows of its tables' columns, per shard: the rows of {@code SHOW SHARDGATE SCHEMA}. */
    public SchemaReport schemaReport() {
        return new SchemaReport(columns);
    }

    /** A DDL statement ran on the shards (or failed on some): the tables' columns are read again before it answers. */
    void afterDdl() {
        columns.reloadAll();
    }

    /** The backends of shard {@code name}. */
    public ShardBackends shard(String name) {
        ShardBackends backends = shards.get(name);
        if (backends == null) {
            throw new IllegalStateException("no backends for shard " + name);
        }
        return backends;
    }

    SequenceSource sequences() {
        return sequences;
    }

    ReplicaRead replicaRead() {
        return replicaRead;
    }

    ColumnCollations collations() {
        return collations;
    }

    XaTransactions xa() {
        return xa;
    }

    TransactionsConfig transactions() {
        return transactions;
    }

    RoutingConfig routing() {
        return routing.get();
    }

    long maxBufferedRows() {
        return maxBufferedRows;
    }

    ExecutorService workers() {
        return workers;
    }

    /** A new session's sharded state; {@code causal} is the client session's, which its reads follow and its commits feed. */
    public ShardedSession newSession(io.shardgate.proxy.routing.CausalPositions causal) {
        return new ShardedSession(this, causal);
    }

    @Override
    public void close() {
        workers.shutdownNow();
    }
}
