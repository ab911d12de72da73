package io.shardgate.router.planner;

import com.alibaba.druid.sql.ast.SQLStatement;
import com.alibaba.druid.sql.ast.statement.SQLDeleteStatement;
import com.alibaba.druid.sql.ast.statement.SQLReplaceStatement;
import com.alibaba.druid.sql.ast.statement.SQLSelectStatement;
import com.alibaba.druid.sql.ast.statement.SQLUpdateStatement;
import com.alibaba.druid.sql.dialect.mysql.ast.statement.MySqlExplainStatement;
import com.alibaba.druid.sql.dialect.mysql.ast.statement.MySqlInsertStatement;
import com.alibaba.druid.sql.dialect.mysql.parser.MySqlStatementParser;
import io.shardgate.router.classify.Classification;
import io.shardgate.router.classify.StatementClass;
import io.shardgate.router.classify.StatementClassifier;
import io.shardgate.errors.ErrorCode;
import io.shardgate.router.exec.Role;
import io.shardgate.router.plan.Plan;
import io.shardgate.router.plan.PlanNode;
import io.shardgate.router.plan.PlanPrinter;
import io.shardgate.router.plan.Route;
import io.shardgate.router.plan.RouteVariant;
import io.shardgate.router.plan.ShardSelection;
import io.shardgate.router.plan.ShardSql;
import io.shardgate.router.plan.StaticRows;
import io.shardgate.router.schema.ColumnCatalog;
import io.shardgate.router.schema.ShardingSchema;

import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * Turns a statement of a client session into a {@link Plan} for a sharded deployment. Pure: no I/O,
 * no state besides the immutable sharding schema and the tables' columns it reads from a
 * {@link ColumnCatalog} (a plan of an INSERT without a column list depends on them), safe to share
 * between threads.
 *
 * <p>A plan does not depend on parameter values: a prepared statement is planned once with its
 * {@code ?} placeholders and each execution binds them ({@link Plan#open}); routing by a parameter is
 * resolved then. {@code EXPLAIN SHARDGATE <statement>} plans the statement and returns the plan's
 * rendering as rows instead.
 *
 * <p>Statements the planner refuses throw {@link io.shardgate.errors.ShardgateException} with
 * the error number, SQLSTATE and message for the client. Session and transaction statements (SET,
 * BEGIN, ...) are not planned: proxy-core applies them to the session.
 */
public final class Planner {
    private final ShardingSchema schema;
    private final ColumnCatalog columns;
    private final StatementClassifier classifier = new StatementClassifier();

    /** A planner that knows no table's columns (an INSERT without a column list into a sharded table is refused). */
    public Planner(ShardingSchema schema) {
        this(schema, ColumnCatalog.NONE);
    }

    /** {@code columns}: the tables' columns, read without I/O at each planning (an INSERT without a column list needs them). */
    public Planner(ShardingSchema schema, ColumnCatalog columns) {
        this.schema = requireNonNull(schema, "schema is null");
        this.columns = requireNonNull(columns, "columns is null");
    }

    /**
     * The plan of {@code sql} for a session whose current schema is {@code currentSchema} (null
     * when none is selected).
     */
    public Plan plan(String sql, String currentSchema) {
        requireNonNull(sql, "sql is null");
        Tokens tokens = Tokens.of(sql);
        if (tokens.size() > 2 && tokens.isWord(0, "EXPLAIN") && tokens.isWord(1, "SHARDGATE")) {
            Plan inner = plan(sql.substring(tokens.get(2).start()), currentSchema);
            return new Plan(sql, new StaticRows("plan", PlanPrinter.lines(inner.root())), inner.parameterCount());
        }
        return new Plan(sql, root(tokens, currentSchema, java.util.Set.of()), tokens.parameterCount());
    }

    /**
     * The plan of {@code sql} with the {@code copied} tables ({@code schema.table}, lower case) placed as
     * copies on every shard: the statement a {@link io.shardgate.router.plan.CopyJoin} runs once it made them.
     */
    PlanNode planWithCopies(String sql, String currentSchema, java.util.Set<String> copied) {
        return root(Tokens.of(sql), currentSchema, copied);
    }

    /**
     * {@code sql} without its {@code PARTITION (...)} clauses that name shards (native partition clauses
     * stay), as any shard can parse it: what a prepared statement's metadata is read from when its plan
     * merges shard results (the shards' own SQL then has other columns than the client sees).
     */
    public String withoutShardPartitions(String sql) {
        Tokens tokens = Tokens.of(requireNonNull(sql, "sql is null"));
        SqlRewriter rewriter = new SqlRewriter(tokens);
        new PartitionSelection(schema).removeShardClauses(tokens, rewriter);
        return rewriter.changed() ? rewriter.build().text() : sql;
    }

    private PlanNode root(Tokens tokens, String currentSchema, java.util.Set<String> copied) {
        if (tokens.isWord(0, "INSERT") || tokens.isWord(0, "REPLACE")) {
            // A bulk load's many-row INSERT of literals is planned from its tokens: no parse of its 100 KB.
            PlanContext context = new PlanContext(schema, new TableResolver(schema, currentSchema), tokens, Role.PRIMARY, columns);
            java.util.Optional<io.shardgate.router.plan.InsertSplit> split = new InsertScan(context).plan();
            if (split.isPresent()) {
                return split.get();
            }
        }
        Classification classification = classifier.classify(tokens.sql());
        if (classification.multiStatement()) {
            // The proxy runs a multi-statement's statements one by one, for a client that allows multi-statements.
            throw ErrorCode.UNSUPPORTED.exception("planning multi-statements (each of their statements is planned on its own)");
        }
        StatementClass kind = classification.statementClass();
        boolean use = tokens.isWord(0, "USE");
        if ((kind == StatementClass.SESSION && !use) || kind == StatementClass.TRANSACTION) {
            throw ErrorCode.UNSUPPORTED.exception("planning " + kind.name().toLowerCase(java.util.Locale.ROOT)
                    + " statements (the session applies them)");
        }
        Role role = kind == StatementClass.READ ? Role.REPLICA : Role.PRIMARY;
        SQLStatement statement = parse(tokens.sql());
        PlanContext context = new PlanContext(schema, new TableResolver(schema, currentSchema, copied), tokens, role, columns);
        if (statement instanceof SQLSelectStatement select) {
            return orAcrossShards(() -> new SelectPlanner(context).plan(select), statement, context, copied);
        }
        if (statement instanceof MySqlInsertStatement || statement instanceof SQLReplaceStatement) {
            return new InsertPlanner(context).plan(statement);
        }
        if (statement instanceof SQLUpdateStatement || statement instanceof SQLDeleteStatement) {
            // As for a SELECT; a copy never takes the place of a table the write changes (CopyJoins).
            return orAcrossShards(() -> new WritePlanner(context).plan(statement), statement, context, copied);
        }
        if (statement instanceof MySqlExplainStatement explain && explain.getStatement() != null) {
            return explain(tokens, currentSchema);
        }
        if (CatalogPlanner.isCatalog(statement)) {
            return new CatalogPlanner(context).plan(statement);
        }
        if (DdlPlanner.isDdl(statement)) {
            return new DdlPlanner(context).plan(statement);
        }
        if (tokens.isWord(0, "LOCK") || tokens.isWord(0, "UNLOCK")) {
            // proxy-core's session takes and releases table locks on the shards (sharding/TableLocks).
            throw ErrorCode.UNSUPPORTED.exception("planning LOCK TABLES and UNLOCK TABLES (the session takes and releases the locks)");
        }
        String verb = tokens.text(0).toUpperCase(java.util.Locale.ROOT)
                + (tokens.size() > 1 && tokens.get(1).type() == io.shardgate.router.classify.TokenType.WORD
                ? " " + tokens.text(1).toUpperCase(java.util.Locale.ROOT) : "");
        throw ErrorCode.UNSUPPORTED.exception(verb + " statements in a sharded deployment");
    }

    /**
     * The plan {@code direct} makes; when it refuses a statement as spanning shards (and the statement is not
     * already planned with copies), subqueries over other shards' rows that do not reference the statement run
     * first ({@link SubqueryPullouts}), else the rows of all tables but one are copied to that one's shards
     * ({@link CopyJoins}); when neither plans, the refusal stands.
     */
    private PlanNode orAcrossShards(java.util.function.Supplier<PlanNode> direct, SQLStatement statement, PlanContext context,
                                    java.util.Set<String> copied) {
        try {
            return direct.get();
        }
        catch (io.shardgate.errors.ShardgateException e) {
            if (e.code() != ErrorCode.UNSUPPORTED || !copied.isEmpty()) {
                throw e;
            }
            return new SubqueryPullouts(this, context.tokens(), context.resolver().currentSchema()).plan().map(PlanNode.class::cast)
                    .or(() -> new CopyJoins(this, context, statement, e.getMessage()).plan().map(PlanNode.class::cast))
                    .orElseThrow(() -> e);
        }
    }

    /** MySQL's EXPLAIN of a statement: the server's plan on the first shard the statement would run on. */
    private PlanNode explain(Tokens tokens, String currentSchema) {
        int at = 1;
        while (at < tokens.size() && !tokens.isWord(at, "SELECT") && !tokens.isWord(at, "UPDATE") && !tokens.isWord(at, "DELETE")
                && !tokens.isWord(at, "INSERT") && !tokens.isWord(at, "REPLACE") && !tokens.isWord(at, "WITH") && !tokens.isOperator(at, '(')) {
            at++;
        }
        if (at >= tokens.size()) {
            throw ErrorCode.UNSUPPORTED.exception("this form of EXPLAIN");
        }
        PlanNode inner = root(Tokens.of(tokens.sql().substring(tokens.get(at).start())), currentSchema, java.util.Set.of());
        String shard = firstShard(inner);
        return new Route(RouteVariant.ONE, "explain", new ShardSelection.Fixed(List.of(shard)),
                new ShardSql(tokens.sql(), List.of()), Role.PRIMARY);
    }

    private String firstShard(PlanNode node) {
        if (node instanceof Route route) {
            return route.selection().fixed().map(s -> s.get(0)).orElse(schema.defaultShard());
        }
        return node.inputs().isEmpty() ? schema.defaultShard() : firstShard(node.inputs().get(0));
    }

    private static SQLStatement parse(String sql) {
        List<SQLStatement> statements;
        String revealed = ExecutableComments.reveal(sql); // its own refusal (a /*M! comment) is the answer, not a parse failure
        try {
            statements = new MySqlStatementParser(revealed).parseStatementList();
        }
        catch (RuntimeException e) {
            // A ParserException, or one of Druid's own internal errors on some malformed text (a ClassCastException in
            // MySqlExprParser.userNameRest, found by ShardedPacketFuzzIT): either way a statement it cannot read, not our bug.
            throw Unparseable.refusal(sql);
        }
        if (statements.size() != 1) {
            throw ErrorCode.UNSUPPORTED.exception(statements.isEmpty() ? "an empty statement" : "multi-statements in a sharded deployment");
        }
        return statements.get(0);
    }
}
