package io.shardgate.router.plan;

import io.shardgate.router.value.SqlValue;
import io.shardgate.errors.ErrorCode;
import io.shardgate.router.shard.ShardRanges;
import io.shardgate.router.vindex.ShardKey;
import io.shardgate.router.vindex.Vindex;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import static java.util.Objects.requireNonNull;

/** Which shards a {@link Route} sends to. */
public sealed interface ShardSelection {

    /** The shards, in config order, for an execution with these parameters. */
    List<String> shards(List<SqlValue> parameters);

    /** The shards, if they do not depend on parameters. */
    Optional<List<String>> fixed();

    /** Always these shards. */
    record Fixed(List<String> shards) implements ShardSelection {
        public Fixed {
            shards = List.copyOf(shards);
            if (shards.isEmpty()) {
                throw new IllegalArgumentException("no shards");
            }
        }

        @Override
        public List<String> shards(List<SqlValue> parameters) {
            return shards;
        }

        @Override
        public Optional<List<String>> fixed() {
            return Optional.of(shards);
        }
    }

    /**
     * The shards owning the shard key values of {@code conditions}: each condition (an equality, one
     * value, or an IN list) allows the shards of its values; a row must meet all conditions, so the
     * result is the intersection, within {@code candidates}. A value that cannot be pinned to a shard
     * (see {@link io.shardgate.router.vindex.KeyType#lookup}) allows every candidate. When nothing is
     * left, no shard holds a matching row, and the first candidate runs the statement to return the
     * empty result with its columns.
     *
     * @param column     the shard key column, for EXPLAIN
     * @param vindex     the shard key's vindex
     * @param conditions the value lists of the conditions on the shard key
     * @param candidates the shards allowed at all (every shard, or those PARTITION names)
     * @param ranges     the shards' key ranges
     * @param oneShard   whether the plan was made for one shard (no merge operators above): an execution whose
     *                   values would need several shards then fails instead of returning unmerged rows
     */
    record Keyed(String column, Vindex vindex, List<List<ValueSource>> conditions, List<String> candidates, ShardRanges ranges,
                 boolean oneShard) implements ShardSelection {
        public Keyed {
            requireNonNull(column, "column is null");
            requireNonNull(vindex, "vindex is null");
            conditions = conditions.stream().map(List::copyOf).toList();
            candidates = List.copyOf(candidates);
            requireNonNull(ranges, "ranges is null");
            if (conditions.isEmpty() || candidates.isEmpty()) {
                throw new IllegalArgumentException("no conditions or no candidate shards");
            }
        }

        @Override
        public List<String> shards(List<SqlValue> parameters) {
            Set<String> allowed = new LinkedHashSet<>(candidates);
            for (List<ValueSource> condition : conditions) {
                allowed.retainAll(shardsOf(condition, parameters));
            }
            List<String> ordered = new ArrayList<>();
            for (String shard : candidates) {
                if (allowed.contains(shard)) {
                    ordered.add(shard);
                }
            }
            if (oneShard && ordered.size() > 1) {
                throw ErrorCode.UNSUPPORTED.exception("a value for shard key " + column + " that matches rows of several shards"
                        + " (compare the key with a value of its own type) in a statement planned for one shard");
            }
            return ordered.isEmpty() ? List.of(candidates.get(0)) : ordered;
        }

        /** This selection in a plan made for one shard. */
        public Keyed forOneShard() {
            return new Keyed(column, vindex, conditions, candidates, ranges, true);
        }

        private Set<String> shardsOf(List<ValueSource> values, List<SqlValue> parameters) {
            Set<String> shards = new LinkedHashSet<>();
            for (ValueSource source : values) {
                SqlValue value = source.value(parameters);
                Optional<ShardKey> key = vindex.keyType().lookup(value);
                if (key.isPresent()) {
                    vindex.shardOf(key.get(), ranges).ifPresent(shards::add);
                }
                else if (!vindex.keyType().matchesNoRow(value)) {
                    return new LinkedHashSet<>(candidates);
                }
            }
            return shards;
        }

        @Override
        public Optional<List<String>> fixed() {
            boolean literal = conditions.stream().flatMap(List::stream).allMatch(v -> v instanceof ValueSource.Literal);
            return literal ? Optional.of(shards(List.of())) : Optional.empty();
        }

        /**
         * At most one shard for any parameters: some condition has a single value that is a parameter
         * (the plan then checks each execution) or a literal that matches one key or none.
         */
        public boolean singleShard() {
            return conditions.stream().anyMatch(c -> c.size() == 1 && (c.get(0) instanceof ValueSource.Parameter
                    || vindex.keyType().lookup(c.get(0).value(List.of())).isPresent()
                    || vindex.keyType().matchesNoRow(c.get(0).value(List.of()))));
        }

        /** {@code customer_id IN (?0, 5)} and so on, for EXPLAIN. */
        public String describe() {
            List<String> parts = new ArrayList<>();
            for (List<ValueSource> condition : conditions) {
                List<String> values = condition.stream().map(ValueSource::describe).toList();
                parts.add(column + (values.size() == 1 ? " = " + values.get(0) : " IN (" + String.join(", ", values) + ")"));
            }
            return String.join(" AND ", parts) + " " + vindex.describe();
        }
    }
}
