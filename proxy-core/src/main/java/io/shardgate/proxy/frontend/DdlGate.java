package io.shardgate.proxy.frontend;

import io.shardgate.proxy.protocol.ErrPacket;
import io.shardgate.router.classify.SqlLexer;
import io.shardgate.storage.capability.EngineCapabilities;
import io.shardgate.errors.ErrorCode;
import io.shardgate.storage.ddl.DdlValidator;
import io.shardgate.storage.ddl.DdlVerdict;

import io.shardgate.storage.ddl.DdlFanOut;
import io.shardgate.storage.ddl.EngineScope;
import io.shardgate.router.classify.TokenType;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * Checks CREATE TABLE, CREATE INDEX, ALTER TABLE and DROP INDEX against the shard's engine before
 * the statement reaches it: what the engine would silently ignore or drop (MyRocks and foreign
 * keys, say) is refused with an error naming shard, engine and clause; an ALTER without ALGORITHM
 * and LOCK gets the least blocking ones the engine allows; an ALTER that would block writes is
 * refused unless the session set {@code shardgate_allow_blocking_ddl}. The refusals and their codes
 * are the storage adapters' ({@link ErrorCode}, listed in docs/errors.md).
 *
 * <p>With several shards (a sharded deployment), the statement is checked against every shard's
 * engine and either each shard gets its own statement (InnoDB and MyRocks may need different
 * ALGORITHM/LOCK) or none gets anything. A statement the validator cannot parse goes through as it
 * is, to be refused or run by the servers themselves.
 *
 * <p>The engine rules protect XA and placement, so they hold for tables of a sharded schema. A table of a
 * schema that is not sharded (every schema of a one-shard deployment; any schema outside {@code schemas} in a
 * sharded one, whose DDL runs on the first shard alone and is checked against that shard alone) may live in
 * any engine the server has: a statement naming one without a storage adapter ({@code ENGINE=MyISAM}, Aria,
 * MEMORY) passes as it is, unchecked, and the server's own answer stands ({@link EngineScope#ANY_ENGINE}).
 * The statement's schema is the one its table name is qualified with, else the session's.
 */
final class DdlGate {
    /**
     * What to send, or the error to answer instead.
     *
     * @param sql      the statement for the first shard (for one shard: the statement)
     * @param refusal  the error to answer instead, or null
     * @param perShard each shard's statement, rewritten for its engine (empty when refused)
     * @param bySize   when refused only because it blocks writes: what to send instead if the table is
     *                 small enough on the refusing shards ({@link DdlCost}); else null
     */
    record Outcome(String sql, ErrPacket refusal, Map<String, String> perShard, BlockingOnly bySize) {
        Outcome(String sql, ErrPacket refusal, Map<String, String> perShard) {
            this(sql, refusal, perShard, null);
        }
    }

    /** A statement refused only for blocking writes: the outcome with blocking allowed, and each shard's refusal. */
    record BlockingOnly(Outcome allowed, List<DdlVerdict.Refused> refusals) {
    }

    private final DdlValidator validator;
    private final List<String> shards;
    private final Function<String, EngineCapabilities> capabilities;
    private final Predicate<String> shardedSchema;

    /**
     * A gate for DDL that goes to {@code shards}, none of whose schemas is sharded (a one-shard deployment).
     * A null {@code validator} (no engine health, so no capabilities) lets every statement through.
     */
    DdlGate(List<String> shards, DdlValidator validator, Function<String, EngineCapabilities> capabilities) {
        this(shards, validator, capabilities, schema -> false);
    }

    /**
     * A gate for DDL of a sharded schema ({@code shardedSchema}, by name; null when the session has none) that goes
     * to every one of {@code shards}: it runs on all of them or on none; DDL of any other schema goes to the first.
     */
    DdlGate(List<String> shards, DdlValidator validator, Function<String, EngineCapabilities> capabilities,
            Predicate<String> shardedSchema) {
        this.validator = validator;
        this.shards = List.copyOf(shards);
        this.capabilities = capabilities;
        this.shardedSchema = shardedSchema;
    }

    /**
     * Null when {@code sql} is not DDL this gate checks, or the shard's capabilities are unknown.
     * {@code currentSchema}: the session's (null when none), the schema of an unqualified table name.
     */
    Outcome check(String sql, boolean allowBlockingDdl, String currentSchema) {
        if (validator == null || !checked(sql)) {
            return null;
        }
        String schema = tableSchema(sql).orElse(currentSchema);
        boolean sharded = shardedSchema.test(schema);
        Map<String, EngineCapabilities> engines = new LinkedHashMap<>();
        for (String shard : sharded ? shards : shards.subList(0, 1)) {
            EngineCapabilities engine = capabilities.apply(shard);
            if (engine == null) {
                return null;
            }
            engines.put(shard, engine);
        }
        DdlFanOut fanOut = validator.validateAll(sql, engines, allowBlockingDdl, sharded ? EngineScope.SHARD_ENGINE : EngineScope.ANY_ENGINE);
        if (!fanOut.isRefused()) {
            return new Outcome(fanOut.statements().get(shards.get(0)), null, fanOut.statements());
        }
        DdlVerdict.Refused refused = fanOut.firstRefusal();
        if (refused.code() == ErrorCode.DDL_NOT_UNDERSTOOD) {
            return new Outcome(sql, null, Map.of());
        }
        BlockingOnly bySize = null;
        if (!allowBlockingDdl && fanOut.refusals().stream().allMatch(r -> r.code() == ErrorCode.BLOCKING_DDL)) {
            Outcome allowed = check(sql, true, currentSchema);
            bySize = allowed != null && allowed.refusal() == null ? new BlockingOnly(allowed, fanOut.refusals()) : null;
        }
        return new Outcome(null, new ErrPacket(refused.errno(), refused.sqlState(), refused.message()), Map.of(), bySize);
    }

    /**
     * Whether {@code sql} is DDL this gate checks, read by its first tokens: CREATE [OR REPLACE]
     * [TEMPORARY] TABLE, CREATE [OR REPLACE] [UNIQUE | FULLTEXT | SPATIAL] INDEX, ALTER [ONLINE]
     * [IGNORE] TABLE, DROP INDEX.
     */
    static boolean checked(String sql) {
        SqlLexer lexer = new SqlLexer(sql);
        lexer.next();
        if (lexer.isWord("DROP")) {
            lexer.next();
            return lexer.isWord("INDEX");
        }
        if (lexer.isWord("ALTER")) {
            lexer.next();
            if (lexer.isWord("ONLINE")) {
                lexer.next();
            }
            if (lexer.isWord("IGNORE")) {
                lexer.next();
            }
            return lexer.isWord("TABLE");
        }
        if (!lexer.isWord("CREATE")) {
            return false;
        }
        lexer.next();
        if (lexer.isWord("OR")) {
            lexer.next();
            if (!lexer.isWord("REPLACE")) {
                return false;
            }
            lexer.next();
        }
        if (lexer.isWord("TEMPORARY")) {
            lexer.next();
            return lexer.isWord("TABLE");
        }
        if (lexer.isWord("UNIQUE") || lexer.isWord("FULLTEXT") || lexer.isWord("SPATIAL")) {
            lexer.next();
            return lexer.isWord("INDEX");
        }
        return lexer.isWord("TABLE") || lexer.isWord("INDEX");
    }

    /**
     * The schema {@code sql}'s table name is qualified with ({@code db.t}), read by its tokens: the name after
     * TABLE [IF [NOT] EXISTS], or after the ON of an index statement. Empty when unqualified.
     */
    static Optional<String> tableSchema(String sql) {
        SqlLexer lexer = new SqlLexer(sql);
        lexer.next();
        boolean index = false;
        while ((lexer.type() == TokenType.WORD || lexer.type() == TokenType.QUOTED_IDENTIFIER) && !lexer.isWord("TABLE")) {
            index |= lexer.isWord("INDEX");
            if (index && lexer.isWord("ON")) {
                break;
            }
            lexer.next();
        }
        if (lexer.type() != TokenType.WORD) {
            return Optional.empty();
        }
        lexer.next();
        while (lexer.isWord("IF") || lexer.isWord("NOT") || lexer.isWord("EXISTS")) {
            lexer.next();
        }
        if (lexer.type() != TokenType.WORD && lexer.type() != TokenType.QUOTED_IDENTIFIER) {
            return Optional.empty();
        }
        String first = identifier(lexer);
        lexer.next();
        return lexer.isOperator('.') ? Optional.of(first) : Optional.empty();
    }

    /** The current token as an identifier: a backquoted one without its quotes (a doubled quote is one). */
    private static String identifier(SqlLexer lexer) {
        String text = lexer.text();
        if (lexer.type() != TokenType.QUOTED_IDENTIFIER || text.length() < 2) {
            return text;
        }
        return text.substring(1, text.length() - (text.endsWith("`") ? 1 : 0)).replace("``", "`");
    }
}
