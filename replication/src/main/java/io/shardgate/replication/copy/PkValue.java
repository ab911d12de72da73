package io.shardgate.replication.copy;

import static java.util.Objects.requireNonNull;

/**
 * One primary-key column's value in a checkpoint, typed so that it serialises to JSON and back
 * without loss: decimal text for integers and decimals, the server's text for temporal values,
 * and hexadecimal of the stored bytes for strings (in the column's character set) and binary values.
 *
 * @param kind  how {@code value} is written
 * @param value the text described above
 */
public record PkValue(KeyColumn.Kind kind, String value) {
    public PkValue {
        requireNonNull(kind, "kind is null");
        requireNonNull(value, "value is null");
    }
}
