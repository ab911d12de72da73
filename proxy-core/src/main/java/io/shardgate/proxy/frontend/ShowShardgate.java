package io.shardgate.proxy.frontend;

import io.shardgate.proxy.digest.DigestReport;
import io.shardgate.proxy.protocol.LocalResultSet;
import io.shardgate.proxy.routing.BackendRow;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * The {@code SHOW SHARDGATE <word>} statements, one entry each: the word, one line saying what it answers
 * ({@code SHOW SHARDGATE HELP} lists them), and the answer. The grammar ({@link ShardgateStatement}), HELP and
 * the error for an unknown word all read this list, so adding a statement (SHOW SHARDGATE SCHEMA, say) is one
 * entry here and nothing else.
 */
enum ShowShardgate {
    BACKENDS("Each backend: shard, role, address, state, replication lag, statements in flight and served, GTID position, last error.",
            ShowShardgate::backends),
    QUERIES("Statement statistics per digest (count, errors, rows, shards, latency percentiles), the 100 with the most total time first.",
            (context, session) -> new LocalResultSet(DigestReport.COLUMNS, new DigestReport(context.digests()).rows())),
    SCHEMA("Each sharded table's columns on each shard (ok, differs, missing, unknown), as Shardgate read them from the shards"
            + " (a deployment with a schemas section).",
            (context, session) -> new LocalResultSet(io.shardgate.proxy.sharding.SchemaReport.COLUMNS, context.sharding()
                    .map(deployment -> deployment.schemaReport().rows()).orElse(List.of()))),
    TOPOLOGY("The topology this proxy serves: its version, the store and whether it is reachable (OK, DEGRADED), and each"
            + " backend's shard, key range, engine, role, address and state (serving, draining, offline).",
            (context, session) -> new LocalResultSet(io.shardgate.proxy.topology.TopologyReport.COLUMNS,
                    io.shardgate.proxy.topology.TopologyReport.rows(context.topology()))),
    HELP("This list: every statement Shardgate answers itself, one line each.", (context, session) -> help());

    /** Shardgate's statements that are not a SHOW SHARDGATE, for HELP: statement, description. */
    private static final List<List<String>> OTHERS = List.of(
            List.of("EXPLAIN SHARDGATE <statement>", "The plan of a statement over sharded tables, one operator per line"
                    + " (a deployment with a schemas section)."),
            List.of("SET [SESSION] shardgate_max_lag_ms = <ms> | DEFAULT", "The session's freshness budget for replica reads."),
            List.of("SELECT @@shardgate_max_lag_ms", "The session's freshness budget for replica reads."),
            List.of("SELECT @@shardgate_causal_token", "A token naming this session's writes, for read-your-writes elsewhere."),
            List.of("SET [SESSION] shardgate_causal_token = '<token>'", "Reads of this session wait for the writes the token names."),
            List.of("SET [SESSION] shardgate_allow_blocking_ddl = ON | OFF", "Lets ALTERs that block writes through (OFF by default)."),
            List.of("KILL [QUERY | CONNECTION] <id>", "Ends a Shardgate session, or its running statement, by its Shardgate id."));

    /** What a SHOW SHARDGATE statement answers, for one session. */
    @FunctionalInterface
    interface Answer {
        LocalResultSet of(FrontendContext context, ClientSession session);
    }

    private final String description;
    private final Answer answer;

    ShowShardgate(String description, Answer answer) {
        this.description = description;
        this.answer = answer;
    }

    /** The statement as a user types it: {@code SHOW SHARDGATE BACKENDS}. */
    String statement() {
        return "SHOW SHARDGATE " + name();
    }

    String description() {
        return description;
    }

    LocalResultSet answer(FrontendContext context, ClientSession session) {
        return answer.of(context, session);
    }

    /** The entry named {@code word}, ignoring case; null for none. */
    static ShowShardgate named(String word) {
        String upper = word.toUpperCase(Locale.ROOT);
        for (ShowShardgate show : values()) {
            if (show.name().equals(upper)) {
                return show;
            }
        }
        return null;
    }

    /** Every SHOW SHARDGATE statement, as the error for an unknown one lists them. */
    static String known() {
        List<String> statements = new ArrayList<>();
        for (ShowShardgate show : values()) {
            statements.add(show.statement());
        }
        return String.join(", ", statements) + ", EXPLAIN SHARDGATE <statement>";
    }

    /** SHOW SHARDGATE HELP: the SHOW SHARDGATE statements, then Shardgate's other statements. */
    static LocalResultSet help() {
        List<List<String>> rows = new ArrayList<>();
        for (ShowShardgate show : values()) {
            rows.add(List.of(show.statement(), show.description()));
        }
        rows.addAll(OTHERS);
        return new LocalResultSet(List.of("statement", "description"), rows);
    }

    private static LocalResultSet backends(FrontendContext context, ClientSession session) {
        List<List<String>> rows = new ArrayList<>();
        for (BackendRow row : context.report().rows()) {
            rows.add(Arrays.asList(row.shard(), row.role(), row.address(), row.state(),
                    row.lagMs() == null ? null : Long.toString(row.lagMs()), Integer.toString(row.inFlight()),
                    Long.toString(row.served()), row.position(), row.lastError()));
        }
        return new LocalResultSet(List.of("shard", "role", "address", "state", "lag_ms", "in_flight", "served",
                "gtid_position", "last_error"), rows);
    }
}
