package io.shardgate.proxy.sharding.sequence;

import io.shardgate.proxy.sharding.SchemaOnFirstUse;
import io.shardgate.router.schema.Sequence;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.function.Function;
import java.util.function.ToLongFunction;

import static java.util.Objects.requireNonNull;

/**
 * Sequence blocks kept in {@code _shardgate.sequences} on each sequence's shard primary, one row
 * per sequence holding the first value not yet reserved. The table is InnoDB whatever the shard's
 * default engine, and is created on a shard's first reservation.
 *
 * <p>A reservation is one autocommitted statement, atomic across every proxy:
 * {@code UPDATE ... SET next_value = LAST_INSERT_ID(next_value + n)}, whose new value comes back
 * in the OK packet. Only when the row does not exist yet is the floor computed (it may scan every
 * shard, so no connection is held meanwhile), and the row inserted with
 * {@code INSERT ... ON DUPLICATE KEY UPDATE}, so a proxy that loses the race to create it still
 * gets a block after the winner's.
 */
public final class SequenceTable implements SequenceStore {
    static final String CREATE_SCHEMA = "CREATE DATABASE IF NOT EXISTS _shardgate";
    static final String CREATE_TABLE = "CREATE TABLE IF NOT EXISTS _shardgate.sequences ("
            + "name VARCHAR(192) NOT NULL PRIMARY KEY, next_value BIGINT UNSIGNED NOT NULL) ENGINE=InnoDB";
    static final String ADVANCE = "UPDATE _shardgate.sequences SET next_value = LAST_INSERT_ID(next_value + ?) WHERE name = ?";
    static final String CREATE_OR_ADVANCE = "INSERT INTO _shardgate.sequences (name, next_value) VALUES (?, LAST_INSERT_ID(?))"
            + " ON DUPLICATE KEY UPDATE next_value = LAST_INSERT_ID(next_value + ?)";

    private final Function<String, DataSource> primaries;
    private final ToLongFunction<Sequence> floor;
    private final SchemaOnFirstUse schema = new SchemaOnFirstUse(CREATE_SCHEMA, CREATE_TABLE);

    /**
     * @param primaries shard name to the control-plane pool of its primary
     * @param floor     the first value of a sequence that has no row yet (at least 1 is used)
     */
    public SequenceTable(Function<String, DataSource> primaries, ToLongFunction<Sequence> floor) {
        this.primaries = requireNonNull(primaries, "primaries is null");
        this.floor = requireNonNull(floor, "floor is null");
    }

    @Override
    public long reserve(Sequence sequence, int count) {
        requireNonNull(sequence, "sequence is null");
        if (count < 1) {
            throw new IllegalArgumentException("count " + count + " (expected: >= 1)");
        }
        try {
            long end = advance(sequence, count);
            if (end == 0) {
                long first = Math.max(1, floor(sequence));
                if (first > Long.MAX_VALUE - count) {
                    throw new SequenceAllocationException(sequence, "starting value " + first + " leaves no room for "
                            + count + " values", null);
                }
                end = createOrAdvance(sequence, first, count);
            }
            return end - count;
        } catch (SQLException | RuntimeException e) {
            if (e instanceof SequenceAllocationException known) {
                throw known;
            }
            throw new SequenceAllocationException(sequence, "cannot reserve a block of " + count + " values", e);
        }
    }

    /** The new next_value, or 0 when the sequence has no row yet. */
    private long advance(Sequence sequence, int count) throws SQLException {
        try (Connection connection = connect(sequence.shard());
             PreparedStatement update = connection.prepareStatement(ADVANCE, Statement.RETURN_GENERATED_KEYS)) {
            update.setLong(1, count);
            update.setString(2, sequence.name());
            return update.executeUpdate() == 0 ? 0 : lastInsertId(update);
        }
    }

    private long createOrAdvance(Sequence sequence, long first, int count) throws SQLException {
        try (Connection connection = connect(sequence.shard());
             PreparedStatement upsert = connection.prepareStatement(CREATE_OR_ADVANCE, Statement.RETURN_GENERATED_KEYS)) {
            upsert.setString(1, sequence.name());
            upsert.setLong(2, first + count);
            upsert.setLong(3, count);
            upsert.executeUpdate();
            return lastInsertId(upsert);
        }
    }

    private long floor(Sequence sequence) {
        try {
            return floor.applyAsLong(sequence);
        } catch (RuntimeException e) {
            throw new SequenceAllocationException(sequence, "cannot compute the starting value", e);
        }
    }

    /** The LAST_INSERT_ID(expr) the statement set, as the server's OK packet reported it. */
    private static long lastInsertId(Statement statement) throws SQLException {
        try (ResultSet keys = statement.getGeneratedKeys()) {
            if (!keys.next()) {
                throw new SQLException("the server reported no LAST_INSERT_ID for the reservation");
            }
            long value = keys.getLong(1);
            if (value <= 0) {
                throw new SQLException("the server reported LAST_INSERT_ID " + value + " for the reservation");
            }
            return value;
        }
    }

    private Connection connect(String shard) throws SQLException {
        return schema.connect(shard, primaries.apply(shard));
    }
}
