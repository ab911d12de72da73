package io.shardgate.router.plan;

import io.shardgate.errors.ErrorCode;
import io.shardgate.router.exec.RowStream;

import static java.util.Objects.requireNonNull;

/**
 * A planned statement: a tree of operators, independent of parameter values, so a prepared
 * statement is planned once and executed many times (routing by parameters is resolved per
 * execution). Immutable; safe to share between sessions.
 */
public final class Plan {
    private final String sql;
    private final PlanNode root;
    private final int parameterCount;

    public Plan(String sql, PlanNode root, int parameterCount) {
        this.sql = requireNonNull(sql, "sql is null");
        this.root = requireNonNull(root, "root is null");
        if (parameterCount < 0) {
            throw new IllegalArgumentException("parameterCount " + parameterCount + " is negative");
        }
        this.parameterCount = parameterCount;
    }

    /** The statement as the client sent it. */
    public String sql() {
        return sql;
    }

    public PlanNode root() {
        return root;
    }

    /** The number of {@code ?} placeholders an execution must bind. */
    public int parameterCount() {
        return parameterCount;
    }

    /** Runs the plan: rows of a query, or a stream whose completion reports a write. */
    public RowStream open(Execution execution) {
        requireNonNull(execution, "execution is null");
        // EXPLAIN SHARDGATE of a statement with ? is answered without binding them: as text, or prepared with values.
        if (execution.parameters().size() != parameterCount && !(root instanceof StaticRows)) {
            throw ErrorCode.WRONG_PARAMETER_COUNT.exception(parameterCount, execution.parameters().size());
        }
        return root.open(execution);
    }

    /** The operator tree as EXPLAIN SHARDGATE shows it. */
    public String explain() {
        return PlanPrinter.print(root);
    }

    @Override
    public String toString() {
        return explain();
    }
}
