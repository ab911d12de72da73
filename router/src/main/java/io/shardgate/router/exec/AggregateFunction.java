package io.shardgate.router.exec;

/** How partial aggregates of several shards combine. */
public enum AggregateFunction {
    /** The shards' counts add up. */
    COUNT,
    /** The shards' sums add up; NULL when every shard's sum is NULL. */
    SUM,
    MIN,
    MAX,
    /** The shards send SUM in the AVG column and COUNT in a helper column; the result is their quotient. */
    AVG,
    /** The shards' GROUP_CONCAT of each (group, arguments, ORDER BY keys) subgroup, concatenated in order. */
    GROUP_CONCAT
}
