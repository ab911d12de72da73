package io.shardgate.router.plan;

import java.util.List;

/**
 * One row of a multi-row INSERT.
 *
 * @param number   the row's number in the statement, from 1, for error messages
 * @param values   its values, in the order of the statement's column list
 * @param keyIndex which value is the shard key
 */
public record InsertRow(int number, List<InsertValue> values, int keyIndex) {
    public InsertRow {
        values = List.copyOf(values);
        if (keyIndex < 0 || keyIndex >= values.size()) {
            throw new IllegalArgumentException("key index " + keyIndex + " outside " + values.size() + " values");
        }
    }
}
