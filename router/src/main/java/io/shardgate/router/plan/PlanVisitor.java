package io.shardgate.router.plan;

/** A function over the kinds of {@link PlanNode}. */
public interface PlanVisitor<R> {
    R visit(Route node);

    R visit(InsertSplit node);

    R visit(MergeSort node);

    R visit(MemorySort node);

    R visit(LimitOffset node);

    R visit(AggregateMerge node);

    R visit(GroupByMerge node);

    R visit(Distinct node);

    R visit(HavingFilter node);

    R visit(Project node);

    R visit(StaticRows node);

    R visit(SubqueryPullout node);

    R visit(InsertFromSelect node);

    R visit(RollupMerge node);

    R visit(CopyJoin node);
}
