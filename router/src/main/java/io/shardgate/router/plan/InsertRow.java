package io.shardgate.router.plan;

import java.util.List;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * One row of a multi-row INSERT.
 *
 * @param number   the row's number in the statement, from 1, for error messages
 * @param values   its values, in the order of the statement's column list
 * @param keyIndex which value is the shard key
 * @param text     the row's tuple exactly as the client wrote it, parentheses included, when the shard statement
 *                 takes it as it is (no parameter to bind, no sequence value to draw); empty when it is rendered
 *                 from {@code values}
 */
public record InsertRow(int number, List<InsertValue> values, int keyIndex, Optional<String> text) {
    public InsertRow {
        values = List.copyOf(values);
        if (keyIndex < 0 || keyIndex >= values.size()) {
            throw new IllegalArgumentException("key index " + keyIndex + " outside " + values.size() + " values");
        }
        requireNonNull(text, "text is null");
    }

    /** A row rendered from its values. */
    public InsertRow(int number, List<InsertValue> values, int keyIndex) {
        this(number, values, keyIndex, Optional.empty());
    }
}
