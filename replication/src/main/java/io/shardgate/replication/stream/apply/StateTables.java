package io.shardgate.replication.stream.apply;

import static java.util.Objects.requireNonNull;

/**
 * Where a stream keeps its state on its target: the apply positions and the schema history, in the {@code _shardgate}
 * schema. The default stream's are {@code apply_position} and {@code schema_history}. Several streams from different
 * sources into one target each need their own, since their GTIDs can share a domain: a reshard's reverse streams (each
 * target shard back into the one source) run under a namespace ({@code apply_position_<namespace>}, …).
 *
 * @param positions the positions table, quoted and qualified
 * @param history   the schema history table, quoted and qualified
 */
public record StateTables(String positions, String history) {
    /** The longest namespace: the table names stay under MariaDB's 64 characters. */
    public static final int MAX_NAMESPACE = 40;
    static final StateTables DEFAULT = of("");

    public StateTables {
        requireNonNull(positions, "positions is null");
        requireNonNull(history, "history is null");
    }

    /** The tables of {@code namespace} (letters, digits and underscores, at most {@value #MAX_NAMESPACE}); "" for the default. */
    public static StateTables of(String namespace) {
        requireNonNull(namespace, "namespace is null");
        if (namespace.length() > MAX_NAMESPACE || !namespace.chars().allMatch(c -> c == '_' || (c < 128 && Character.isLetterOrDigit(c)))) {
            throw new IllegalArgumentException("a stream namespace is letters, digits and underscores, at most " + MAX_NAMESPACE
                    + " characters: '" + namespace + "'");
        }
        String suffix = namespace.isEmpty() ? "" : "_" + namespace;
        return new StateTables("`_shardgate`.`apply_position" + suffix + "`", "`_shardgate`.`schema_history" + suffix + "`");
    }
}
