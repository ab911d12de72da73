package io.shardgate.router.plan;

/** How a {@link Route} picks its shards. */
public enum RouteVariant {
    /** One fixed shard: an unsharded table, a catalog statement, a reference-table read. */
    ONE,
    /** The shards owning the values an equality or IN gives for the shard key; known per execution. */
    BY_KEY,
    /** Every shard (or those PARTITION (...) names): the result is the union of theirs. */
    SCATTER,
    /** Every shard, and all must succeed: DDL and reference-table writes. Failures name the shards. */
    ALL
}
