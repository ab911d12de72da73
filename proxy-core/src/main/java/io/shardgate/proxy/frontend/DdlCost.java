package io.shardgate.proxy.frontend;

import io.netty.channel.EventLoop;
import io.shardgate.errors.ErrorCode;
import io.shardgate.proxy.config.DdlConfig;
import io.shardgate.proxy.protocol.ErrPacket;
import io.shardgate.router.classify.SqlLexer;
import io.shardgate.router.classify.TokenType;
import io.shardgate.storage.ddl.DdlVerdict;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * The blocking-DDL guard by cost: an ALTER, CREATE INDEX or DROP INDEX that {@link DdlGate} refused
 * only because it blocks writes runs without {@code shardgate_allow_blocking_ddl} when, on every
 * shard where it blocks, the table is small by the engine's own statistics: at most
 * {@code ddl.blocking_max_rows} rows and {@code ddl.blocking_max_bytes} bytes of data and indexes
 * ({@link DdlConfig}). Above either bound it is refused with the table's size and the bounds. A bound
 * of 0 turns this off: every blocking DDL needs the session's consent.
 *
 * <p>Statistics are estimates and lag writes (MyRocks caches its memtable's row count for a minute and
 * reports no bytes for it until a flush; InnoDB recalculates in the background), so the rows are at
 * least what a count that stops just above the row bound finds: a freshly loaded table is never taken
 * for an empty one. A statement whose table Shardgate cannot name, or whose size cannot be read, keeps
 * its refusal.
 */
final class DdlCost {
    static final String ALLOW_BLOCKING = "SET SESSION shardgate_allow_blocking_ddl = ON";

    /** The table a DDL statement changes; {@code schema} null when the statement does not name one. */
    record Table(String schema, String name) {
        String qualified(String currentSchema) {
            return "`" + (schema == null ? currentSchema : schema).replace("`", "``") + "`.`" + name.replace("`", "``") + "`";
        }
    }

    private final DdlConfig bounds;
    private final TableSizes sizes;

    DdlCost(DdlConfig bounds, TableSizes sizes) {
        this.bounds = bounds;
        this.sizes = sizes;
    }

    /**
     * Null (completed) when the table of {@code sql} is small on every shard of {@code blocking}'s
     * refusals: {@code blocking.allowed()} may run. Otherwise the ERR to answer: the size and the
     * bounds, or {@code refusal} as it was when the size cannot be known. Completes on any thread.
     */
    CompletableFuture<ErrPacket> check(String sql, String currentSchema, ErrPacket refusal, DdlGate.BlockingOnly blocking,
                                       EventLoop loop) {
        Optional<Table> table = table(sql);
        if (bounds.blockingMaxRows() == 0 || bounds.blockingMaxBytes() == 0 || table.isEmpty() || (table.get().schema() == null && (currentSchema == null || currentSchema.isEmpty()))) {
            return CompletableFuture.completedFuture(refusal);
        }
        String schema = table.get().schema() == null ? currentSchema : table.get().schema();
        List<String> shards = new ArrayList<>();
        for (DdlVerdict.Refused refused : blocking.refusals()) {
            shards.add(refused.shard());
        }
        CompletableFuture<Map<String, TableSizes.Size>> read;
        try {
            read = sizes.of(shards, schema, table.get().name(), bounds.blockingMaxRows() + 1, loop);
        } catch (RuntimeException e) {
            return CompletableFuture.completedFuture(refusal);
        }
        return read.handle((byShard, error) -> error != null ? refusal
                : verdict(byShard, blocking, table.get().qualified(currentSchema)));
    }

    /** Null when every refusing shard's table is within both bounds; else the refusal naming the first that is not. */
    ErrPacket verdict(Map<String, TableSizes.Size> byShard, DdlGate.BlockingOnly blocking, String table) {
        for (DdlVerdict.Refused refused : blocking.refusals()) {
            TableSizes.Size size = byShard.get(refused.shard());
            if (size == null || size.rows() > bounds.blockingMaxRows() || size.bytes() > bounds.blockingMaxBytes()) {
                long rows = size == null ? -1 : size.rows();
                long bytes = size == null ? -1 : size.bytes();
                // Rows one above the bound are the bounded count's: the statistics had fewer.
                String rowsText = rows == bounds.blockingMaxRows() + 1 ? "more than " + bounds.blockingMaxRows() : "about " + rows;
                return ErrPacket.of(ErrorCode.BLOCKING_DDL_LARGE_TABLE, refused.clause(), refused.shard(),
                        refused.engine().serverName(), table, rowsText, bytes, bounds.blockingMaxRows(), bounds.blockingMaxBytes(),
                        ALLOW_BLOCKING);
            }
        }
        return null;
    }

    /**
     * The table {@code ALTER [ONLINE] [IGNORE] TABLE [IF EXISTS] t}, {@code CREATE ... INDEX i ... ON t}
     * or {@code DROP INDEX [IF EXISTS] i ON t} changes, read by its tokens.
     */
    static Optional<Table> table(String sql) {
        SqlLexer lexer = new SqlLexer(sql);
        lexer.next();
        boolean alter = lexer.isWord("ALTER");
        TokenType type = lexer.next();
        while (type != TokenType.END) {
            boolean found = alter ? lexer.isWord("TABLE") : lexer.isWord("ON");
            type = lexer.next();
            if (found) {
                if (alter && lexer.isWord("IF")) {
                    lexer.next();
                    type = lexer.next();
                }
                return name(lexer, type);
            }
        }
        return Optional.empty();
    }

    private static Optional<Table> name(SqlLexer lexer, TokenType type) {
        String first = identifier(lexer, type);
        if (first == null) {
            return Optional.empty();
        }
        lexer.next();
        if (!lexer.isOperator('.')) {
            return Optional.of(new Table(null, first));
        }
        String second = identifier(lexer, lexer.next());
        return second == null ? Optional.empty() : Optional.of(new Table(first, second));
    }

    private static String identifier(SqlLexer lexer, TokenType type) {
        if (type == TokenType.WORD) {
            return lexer.text();
        }
        if (type == TokenType.QUOTED_IDENTIFIER) {
            String text = lexer.text();
            return text.substring(1, text.length() - 1).replace("``", "`");
        }
        return null;
    }
}
