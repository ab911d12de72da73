package io.shardgate.router.plan;

import io.shardgate.router.exec.RowStream;

import java.util.List;

/**
 * One operator of a plan: a tree whose leaves ({@link Route}, {@link InsertSplit}) reach shards
 * through the execution's cursor and whose inner nodes merge their inputs' rows. EXPLAIN output is
 * built by {@link PlanPrinter}, a visitor, not by the nodes.
 */
public sealed interface PlanNode
        permits Route, InsertSplit, MergeSort, MemorySort, LimitOffset, AggregateMerge, GroupByMerge, Distinct,
        HavingFilter, Project, StaticRows, SubqueryPullout, InsertFromSelect, RollupMerge, CopyJoin {

    /** The operators this one reads from. */
    List<PlanNode> inputs();

    /** Starts the operator: shard statements are sent, and rows come from the stream. */
    RowStream open(Execution execution);

    <R> R accept(PlanVisitor<R> visitor);
}
