package io.shardgate.proxy.sharding;

import io.shardgate.errors.ErrorCode;
import io.shardgate.router.classify.SqlLexer;
import io.shardgate.router.classify.TokenType;
import io.shardgate.router.schema.ShardingSchema;
import io.shardgate.router.schema.TableRule;
import io.shardgate.router.schema.UnshardedTable;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

import static java.util.Objects.requireNonNull;

/**
 * {@code LOCK TABLE[S] tbl [[AS] alias] {READ [LOCAL] | [LOW_PRIORITY] WRITE [CONCURRENT]}, ... [WAIT n | NOWAIT]}
 * read by its tokens, and split by shard: each shard that holds one of the tables (a sharded or reference table:
 * every shard; an unsharded one: its shard) gets the statement listing only the items of its tables, each item
 * in the client's own text ({@link #perShard}).
 *
 * @param prefix the text before the first item ({@code LOCK TABLES })
 * @param items  the locked tables, in the statement's order
 * @param suffix {@code WAIT n} or {@code NOWAIT}, or empty
 */
record LockTablesStatement(String prefix, List<Item> items, String suffix) {
    /**
     * One {@code tbl [[AS] alias] lock_type}.
     *
     * @param schema the schema it names, or null for the session's
     * @param table  the table's name, unquoted
     * @param text   the item as the client wrote it
     */
    record Item(String schema, String table, String text) {
        Item {
            requireNonNull(table, "table is null");
            requireNonNull(text, "text is null");
        }
    }

    LockTablesStatement {
        requireNonNull(prefix, "prefix is null");
        items = List.copyOf(items);
        requireNonNull(suffix, "suffix is null");
    }

    /** The statement, when {@code sql} is a LOCK TABLES whose items it can read; empty for any other text. */
    static Optional<LockTablesStatement> parse(String sql) {
        SqlLexer lexer = new SqlLexer(sql);
        lexer.next();
        if (!lexer.isWord("LOCK")) {
            return Optional.empty();
        }
        lexer.next();
        if (!lexer.isWord("TABLES") && !lexer.isWord("TABLE")) {
            return Optional.empty();
        }
        lexer.next();
        int first = lexer.start();
        List<Item> items = new ArrayList<>();
        String suffix = "";
        while (true) {
            int start = lexer.start();
            if (!isName(lexer.type())) {
                return Optional.empty();
            }
            String schema = null;
            String table = name(lexer);
            lexer.next();
            if (lexer.isOperator('.')) {
                lexer.next();
                if (!isName(lexer.type())) {
                    return Optional.empty();
                }
                schema = table;
                table = name(lexer);
                lexer.next();
            }
            int end = -1;
            boolean lockType = false;
            while (lexer.type() != TokenType.END && lexer.type() != TokenType.SEMICOLON && !lexer.isOperator(',')
                    && !(lockType && (lexer.isWord("WAIT") || lexer.isWord("NOWAIT")))) {
                lockType = lexer.isWord("READ") || lexer.isWord("LOCAL") || lexer.isWord("WRITE") || lexer.isWord("CONCURRENT");
                end = lexer.end();
                lexer.next();
            }
            if (end < 0 || !lockType) {
                return Optional.empty(); // no lock type: the shard's own syntax error is the answer
            }
            items.add(new Item(schema, table, sql.substring(start, end)));
            if (lexer.isWord("WAIT") || lexer.isWord("NOWAIT")) {
                int waitStart = lexer.start();
                int waitEnd = lexer.end();
                while (lexer.next() != TokenType.END && lexer.type() != TokenType.SEMICOLON) {
                    waitEnd = lexer.end();
                }
                suffix = " " + sql.substring(waitStart, waitEnd);
            }
            if (!lexer.isOperator(',')) {
                break;
            }
            lexer.next();
        }
        while (lexer.type() == TokenType.SEMICOLON) {
            lexer.next();
        }
        if (lexer.type() != TokenType.END) {
            return Optional.empty();
        }
        return Optional.of(new LockTablesStatement(sql.substring(0, first), items, suffix));
    }

    /**
     * {@code request}'s LOCK TABLES for each shard ({@link #perShard}), in the client's character set; a text it cannot
     * read goes whole to the default shard, whose own error is then the answer.
     */
    static SortedMap<String, byte[]> statements(io.shardgate.proxy.execution.StatementRequest request, ShardingSchema placement) {
        SortedMap<String, String> texts = parse(request.sql()).map(statement -> statement.perShard(placement, request.schema()))
                .orElseGet(() -> new TreeMap<>(java.util.Map.of(placement.defaultShard(), request.sql())));
        SortedMap<String, byte[]> statements = new TreeMap<>();
        texts.forEach((shard, text) -> statements.put(shard, request.charset().encode(text)));
        return statements;
    }

    /**
     * The statement each shard gets, by shard name (in name order, the order the locks are taken in): the items of
     * the tables it holds, in the statement's order. Fails with 1046 for an unqualified table without a current schema.
     */
    SortedMap<String, String> perShard(ShardingSchema placement, String currentSchema) {
        SortedMap<String, List<String>> texts = new TreeMap<>();
        for (Item item : items) {
            for (String shard : shards(placement, item.schema() != null ? item.schema() : currentSchema, item.table())) {
                texts.computeIfAbsent(shard, s -> new ArrayList<>()).add(item.text());
            }
        }
        SortedMap<String, String> statements = new TreeMap<>();
        texts.forEach((shard, list) -> statements.put(shard, prefix + String.join(", ", list) + suffix));
        return statements;
    }

    /** The shards that hold {@code table} of {@code schema}: every shard for a sharded or reference table, else its one. */
    static List<String> shards(ShardingSchema placement, String schema, String table) {
        if (schema == null || schema.isEmpty()) {
            throw ErrorCode.NO_DATABASE_SELECTED.exception();
        }
        Optional<TableRule> rule = placement.schema(schema).flatMap(rules -> rules.table(table));
        if (rule.isEmpty()) {
            return List.of(placement.defaultShard()); // another schema's table, or one the rules do not list
        }
        return rule.get() instanceof UnshardedTable unsharded ? List.of(unsharded.shard()) : placement.shardNames();
    }

    /**
     * The first table a statement names after FROM, JOIN, INTO, UPDATE or TABLE (its last name part, unquoted),
     * for MariaDB's 1100 message; empty when it names none (SELECT 1).
     */
    static Optional<String> firstTable(String sql) {
        SqlLexer lexer = new SqlLexer(sql);
        boolean afterKeyword = false;
        for (TokenType type = lexer.next(); type != TokenType.END; type = lexer.next()) {
            if (afterKeyword && isName(type) && !lexer.isWord("DUAL") && !lexer.isWord("IGNORE") && !lexer.isWord("LOW_PRIORITY")) {
                String name = name(lexer);
                lexer.next();
                while (lexer.isOperator('.')) {
                    if (!isName(lexer.next())) {
                        break;
                    }
                    name = name(lexer);
                    lexer.next();
                }
                return Optional.of(name);
            }
            afterKeyword = lexer.isWord("FROM") || lexer.isWord("JOIN") || lexer.isWord("INTO") || lexer.isWord("UPDATE")
                    || lexer.isWord("TABLE") || (afterKeyword && (lexer.isWord("IGNORE") || lexer.isWord("LOW_PRIORITY")));
        }
        return Optional.empty();
    }

    private static boolean isName(TokenType type) {
        return type == TokenType.WORD || type == TokenType.QUOTED_IDENTIFIER;
    }

    /** The current token as a name: a backquoted identifier without its quotes (doubled backquotes undone). */
    private static String name(SqlLexer lexer) {
        String text = lexer.text();
        if (lexer.type() != TokenType.QUOTED_IDENTIFIER) {
            return text;
        }
        int end = text.length() > 1 && text.endsWith("`") ? text.length() - 1 : text.length();
        return text.substring(1, end).replace("``", "`");
    }
}
