package io.shardgate.router.planner;

import io.shardgate.router.classify.TokenType;
import io.shardgate.errors.ErrorCode;
import io.shardgate.router.schema.ShardingSchema;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Explicit partition selection, {@code t PARTITION (s0, s1)}, with MySQL's meaning kept: names that
 * are shards restrict the statement to those shards and are removed from the SQL the shards get;
 * names that are not shards are the table's native partitions and reach the backend unchanged (an
 * unknown name gets the backend's ERR 1735). A clause mixing both kinds is refused.
 */
final class PartitionSelection {

    private final ShardingSchema schema;

    PartitionSelection(ShardingSchema schema) {
        this.schema = schema;
    }

    /** The shard names of {@code names} in config spelling, when all are shards; empty when none is; throws when mixed. */
    Optional<List<String>> shards(List<String> names, String table) {
        List<String> shards = new ArrayList<>();
        for (String name : names) {
            schema.shardNames().stream().filter(s -> s.equalsIgnoreCase(name)).findFirst().ifPresent(shards::add);
        }
        if (shards.isEmpty()) {
            return Optional.empty();
        }
        if (shards.size() != names.size()) {
            throw ErrorCode.UNSUPPORTED.exception("PARTITION (" + String.join(", ", names) + ") on " + table
                    + " mixing shard names with partition names");
        }
        return Optional.of(List.copyOf(new LinkedHashSet<>(shards)));
    }

    /**
     * The shards the statement's sharded and reference tables allow (empty: no restriction); checks
     * each clause. Unsharded tables only accept their own shard (ERR 1735 otherwise). Shard names
     * are accepted only at the top level, outside the NULL side of outer joins, where they restrict
     * the rows the statement sees; reference tables accept them only in reads.
     */
    Optional<List<String>> restriction(List<TableUse> uses, boolean write) {
        Set<String> allowed = null;
        for (TableUse use : uses) {
            if (use.partitions().isEmpty()) {
                continue;
            }
            Optional<List<String>> shards = shards(use.partitions(), use.table().qualified());
            if (shards.isEmpty()) {
                continue;
            }
            if (use.table().unsharded()) {
                for (String shard : shards.get()) {
                    if (!shard.equals(use.table().home())) {
                        throw ErrorCode.UNKNOWN_PARTITION.exception(shard, use.table().name());
                    }
                }
                continue;
            }
            if (use.table().reference()) {
                if (write) {
                    throw ErrorCode.UNSUPPORTED.exception("PARTITION naming shards on reference table " + use.table().qualified()
                            + " in a write: its copies must stay equal");
                }
                if (uses.stream().anyMatch(u -> u.table().sharded())) {
                    continue; // every shard has the same copy: the clause only goes
                }
            }
            if (!use.outermost() || use.nullExtended() || use.derived()) {
                throw ErrorCode.UNSUPPORTED.exception("PARTITION naming shards on " + use.table().qualified()
                        + " inside a subquery, a derived table or the NULL side of an outer join");
            }
            if (allowed == null) {
                allowed = new LinkedHashSet<>(shards.get());
            }
            else {
                allowed.retainAll(shards.get());
            }
        }
        if (allowed == null) {
            return Optional.empty();
        }
        List<String> ordered = schema.shardNames().stream().filter(allowed::contains).toList();
        return Optional.of(ordered);
    }

    /** Removes every {@code PARTITION (...)} clause that names shards from the SQL (native partition clauses stay). */
    void removeShardClauses(Tokens tokens, SqlRewriter rewriter) {
        for (int i = 1; i + 1 < tokens.size(); i++) {
            if (!tokens.isWord(i, "PARTITION") || !tokens.isOperator(i + 1, '(')) {
                continue;
            }
            int close = tokens.closing(i + 1);
            if (close < 0) {
                continue;
            }
            List<String> names = new ArrayList<>();
            for (int j = i + 2; j < close; j++) {
                if (tokens.get(j).type() == TokenType.WORD || tokens.get(j).type() == TokenType.QUOTED_IDENTIFIER) {
                    names.add(Names.plain(tokens.text(j)));
                }
            }
            if (!names.isEmpty() && shards(names, "a table").isPresent()) {
                rewriter.delete(tokens.get(i - 1).end(), tokens.get(close).end());
            }
            i = close;
        }
    }
}
