package io.shardgate.storage.checksum;

import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * The columns a checksum covers, in table order, and the primary key.
 *
 * @param names    every column, in ORDINAL_POSITION order
 * @param nullable the nullable ones (their null flags go into the checksum)
 * @param key      the primary-key columns in key order
 */
public record TableColumns(List<String> names, List<String> nullable, List<String> key) {
    public TableColumns {
        names = List.copyOf(requireNonNull(names, "names is null"));
        nullable = List.copyOf(requireNonNull(nullable, "nullable is null"));
        key = List.copyOf(requireNonNull(key, "key is null"));
    }
}
