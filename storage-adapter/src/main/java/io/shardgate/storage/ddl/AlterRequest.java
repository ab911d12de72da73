package io.shardgate.storage.ddl;

import io.shardgate.storage.capability.AlterOperation;

import java.util.Collections;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;

import static java.util.Objects.requireNonNull;

/**
 * What an ALTER TABLE, CREATE INDEX or DROP INDEX does, for online DDL.
 *
 * @param operations the kinds of change it makes; empty for a statement that changes nothing
 * @param algorithm  the ALGORITHM it names (upper case, possibly {@code DEFAULT}), if any
 * @param lock       the LOCK it names (upper case, possibly {@code DEFAULT}), if any
 * @param separator  what goes before each added clause: {@code ", "} in an ALTER TABLE, {@code " "}
 *                   after CREATE INDEX; empty for DROP INDEX, which takes no clauses on MariaDB
 *                   10.11 (ER 1064, whatever its manual says), so the server's default, the least
 *                   blocking way, applies
 */
record AlterRequest(Set<AlterOperation> operations, Optional<String> algorithm, Optional<String> lock,
                    Optional<String> separator) {
    AlterRequest {
        operations = operations.isEmpty() ? Set.of()
                : Collections.unmodifiableSet(EnumSet.copyOf(requireNonNull(operations, "operations is null")));
        requireNonNull(algorithm, "algorithm is null");
        requireNonNull(lock, "lock is null");
        requireNonNull(separator, "separator is null");
    }
}
