package io.shardgate.router.exec;

import io.shardgate.router.collation.Collation;
import io.shardgate.router.collation.Collations;

import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * What the merge operators need to know of a result column: its name, how its values compare,
 * and its collation id. proxy-core keeps the full column definition to send to the client.
 *
 * @param name        the column name (its label)
 * @param kind        how values compare
 * @param collationId the collation id of the column definition
 * @param decimals    the decimals of the column definition (AVG adds 4, as MySQL's div_precision_increment)
 */
public record ColumnMeta(String name, ValueKind kind, int collationId, int decimals) {

    public ColumnMeta {
        requireNonNull(name, "name is null");
        requireNonNull(kind, "kind is null");
    }

    /** A column of this kind with the default utf8mb4 collation and no decimals: for tests. */
    public static ColumnMeta of(String name, ValueKind kind) {
        return new ColumnMeta(name, kind, kind == ValueKind.BINARY ? 63 : Collations.UTF8MB4_GENERAL_CI.id(), 0);
    }

    /** The column's collation, when Shardgate knows it. */
    public Optional<Collation> collation() {
        return Collations.byId(collationId);
    }
}
