package io.shardgate.storage.ddl;

import com.alibaba.druid.sql.parser.Token;
import io.shardgate.errors.ErrorCode;
import io.shardgate.storage.Engine;
import io.shardgate.storage.StorageAdapters;
import io.shardgate.storage.capability.EngineCapabilities;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The ENGINE= clauses of a CREATE or ALTER TABLE, the table's and its partitions', on one shard.
 * One logical table lives on InnoDB and MyRocks shards at once, and tools name an engine by habit
 * (mysqldump writes {@code ENGINE=InnoDB}, sysbench an executable comment with
 * {@code ENGINE = innodb}), so:
 * <ul>
 *   <li>a clause naming the shard's engine stays as written;</li>
 *   <li>one naming another engine Shardgate has a storage adapter for ({@link StorageAdapters#named}:
 *       its server and config names and aliases, such as {@code INNOBASE} and {@code MyRocks}) is
 *       rewritten to the shard's engine: on a MyRocks shard {@code ENGINE=InnoDB} becomes
 *       {@code ENGINE=ROCKSDB};</li>
 *   <li>any other engine (MEMORY, Aria, MyISAM, ...) is refused with
 *       {@link ErrorCode#ENGINE_MISMATCH}, and so is a clause it cannot find in the text to rewrite.</li>
 * </ul>
 * The table's clause is the one Druid parsed, found in the tokens by its value. A partition's
 * clause ({@code PARTITION p0 ... [STORAGE] ENGINE [=] name}) is any inside the parentheses after
 * the statement's PARTITION keyword: Druid drops those, and the server puts the table in that engine
 * when the table names none, or refuses a mix (ER 1497).
 */
final class EngineClauses {
    private EngineClauses() {
    }

    /**
     * Refuse with {@code refusal}, or go on with {@code edits} to the statement and the table
     * {@code options} as the shard will read them (ENGINE, if named, is its own).
     */
    record Resolution(Optional<DdlVerdict.Refused> refusal, List<TextEdit> edits, TableOptions options) {
    }

    /** One clause: the engine named, and where the statement writes it ({@code start} -1: not found). */
    private record Clause(String name, int start, int end) {
        static Clause notFound(String name) {
            return new Clause(name, -1, -1);
        }

        boolean found() {
            return start >= 0;
        }
    }

    /**
     * @param sql     the statement as sent, for the offsets of {@code tokens}
     * @param tokens  its tokens, executable comments opened
     * @param options its table options
     */
    static Resolution resolve(String sql, List<SqlToken> tokens, TableOptions options, EngineCapabilities capabilities,
                              String shard, StorageAdapters adapters) {
        Engine engine = capabilities.engine();
        List<TextEdit> edits = new ArrayList<>();
        for (Clause clause : clauses(sql, tokens, options.get("ENGINE"))) {
            if (clause.name().equalsIgnoreCase(engine.serverName())) {
                continue;
            }
            if (adapters.named(clause.name()).isEmpty() || !clause.found()) {
                return new Resolution(Optional.of(DdlVerdict.Refused.of(ErrorCode.ENGINE_MISMATCH, shard, engine,
                        "ENGINE=" + clause.name(), "leave ENGINE= out or name " + engine.serverName())), List.of(), options);
            }
            edits.add(new TextEdit(clause.start(), clause.end(), engine.serverName()));
        }
        return new Resolution(Optional.empty(), List.copyOf(edits), options.with("ENGINE", engine.serverName()));
    }

    /** The table's clause (without a place when the tokens do not show it), then the partitions'. */
    private static List<Clause> clauses(String sql, List<SqlToken> tokens, Optional<String> tableEngine) {
        List<Clause> table = new ArrayList<>();
        List<Clause> partitions = new ArrayList<>();
        boolean partitioned = false;
        for (int i = 0; i < tokens.size(); i++) {
            SqlToken token = tokens.get(i);
            partitioned |= token.depth() == 0 && token.kind() == Token.PARTITION;
            Optional<SqlToken> value = engineValue(tokens, i);
            if (value.isEmpty()) {
                continue;
            }
            String name = value.get().unquoted();
            if (partitioned && token.depth() > 0) {
                partitions.add(clause(sql, name, value.get()));
            } else if (!partitioned && token.depth() == 0 && tableEngine.filter(name::equalsIgnoreCase).isPresent()) {
                table.add(clause(sql, name, value.get()));
            }
        }
        if (tableEngine.isPresent() && table.isEmpty()) {
            table.add(Clause.notFound(tableEngine.get()));
        }
        table.addAll(partitions);
        return table;
    }

    /** The value of {@code ENGINE [=] value} at {@code i}, unless ENGINE there is a name (after a dot or PARTITION). */
    private static Optional<SqlToken> engineValue(List<SqlToken> tokens, int i) {
        SqlToken token = tokens.get(i);
        if (token.kind() != Token.IDENTIFIER || !"ENGINE".equalsIgnoreCase(token.value())) {
            return Optional.empty();
        }
        SqlToken previous = i > 0 ? tokens.get(i - 1) : null;
        if (previous != null && (previous.kind() == Token.DOT || previous.kind() == Token.PARTITION
                || previous.is("SUBPARTITION"))) {
            return Optional.empty();
        }
        int at = i + 1 < tokens.size() && tokens.get(i + 1).kind() == Token.EQ ? i + 2 : i + 1;
        if (at >= tokens.size()) {
            return Optional.empty();
        }
        SqlToken value = tokens.get(at);
        return switch (value.kind()) {
            case IDENTIFIER, LITERAL_CHARS, LITERAL_ALIAS -> Optional.of(value);
            default -> Optional.empty();
        };
    }

    /**
     * The clause naming {@code name} with {@code value}, which ends at the token's end (a token's
     * start may be that of a comment before it); a quoted name or string is replaced with its
     * quotes. Not found when the text there is not the value as read (a string with escapes, say).
     */
    private static Clause clause(String sql, String name, SqlToken value) {
        String written = value.kind() == Token.LITERAL_CHARS ? "'" + value.value() + "'" : value.value();
        int start = value.end() - written.length();
        return start >= value.start() && sql.startsWith(written, start)
                ? new Clause(name, start, value.end()) : Clause.notFound(name);
    }
}
