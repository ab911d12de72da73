package io.shardgate.proxy.sharding.xa;

import io.shardgate.proxy.sharding.ControlPlane;
import io.shardgate.proxy.sharding.FailureText;
import io.shardgate.proxy.sharding.SchemaOnFirstUse;

import javax.sql.DataSource;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Collection;
import java.util.HashSet;
import java.util.Set;

import static java.util.Objects.requireNonNull;

/**
 * The decision log in {@code _shardgate.xa_decisions} on the decision shard's primary
 * ({@code transactions.decision_shard}), over the control plane. The table is InnoDB and created
 * on first use. Each write is one autocommitted statement, so a decision is durable when
 * {@link #decide} returns as far as the server's {@code innodb_flush_log_at_trx_commit=1} (the
 * default) makes any commit durable.
 *
 * <p>{@link #decide} is an INSERT on the gtrid primary key, so whichever of the coordinator
 * (COMMIT) and recovery (ABORT) writes first wins, and the loser reads the winner's decision.
 */
public final class XaDecisionTable implements XaDecisionLog {
    static final String CREATE_SCHEMA = "CREATE DATABASE IF NOT EXISTS _shardgate";
    static final String CREATE_TABLE = "CREATE TABLE IF NOT EXISTS _shardgate.xa_decisions ("
            + "gtrid VARBINARY(128) NOT NULL PRIMARY KEY, "
            + "decision ENUM('commit','abort') NOT NULL, "
            + "decided_at TIMESTAMP(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6)) ENGINE=InnoDB";
    private static final int DUPLICATE_KEY = 1062;

    private final String shard;
    private final DataSource dataSource;
    private final SchemaOnFirstUse schema = new SchemaOnFirstUse(CREATE_SCHEMA, CREATE_TABLE);

    public XaDecisionTable(String shard, DataSource dataSource) {
        this.shard = requireNonNull(shard, "shard is null");
        this.dataSource = requireNonNull(dataSource, "dataSource is null");
    }

    /** The decision log on {@code shard}'s primary. */
    public static XaDecisionTable on(ControlPlane controlPlane, String shard) {
        return new XaDecisionTable(shard, controlPlane.dataSource(shard));
    }

    public String shard() {
        return shard;
    }

    @Override
    public XaDecision decide(String gtrid, XaDecision proposed) {
        requireNonNull(gtrid, "gtrid is null");
        requireNonNull(proposed, "proposed is null");
        try (Connection connection = connect()) {
            // A record disappears only through forget(); the second round covers one racing this call.
            for (int attempt = 0; attempt < 2; attempt++) {
                if (insert(connection, gtrid, proposed)) {
                    return proposed;
                }
                XaDecision recorded = lookup(connection, gtrid);
                if (recorded != null) {
                    return recorded;
                }
            }
            throw new SQLException("the decision of " + gtrid + " keeps being deleted while it is written");
        } catch (SQLException e) {
            throw failure("cannot record " + proposed + " for " + gtrid, e);
        }
    }

    private static boolean insert(Connection connection, String gtrid, XaDecision decision) throws SQLException {
        try (PreparedStatement insert = connection.prepareStatement(
                "INSERT INTO _shardgate.xa_decisions (gtrid, decision) VALUES (?, ?)")) {
            insert.setBytes(1, bytes(gtrid));
            insert.setString(2, decision.sqlValue());
            insert.executeUpdate();
            return true;
        } catch (SQLException e) {
            if (e.getErrorCode() == DUPLICATE_KEY) {
                return false;
            }
            throw e;
        }
    }

    private static XaDecision lookup(Connection connection, String gtrid) throws SQLException {
        try (PreparedStatement select = connection.prepareStatement(
                "SELECT decision FROM _shardgate.xa_decisions WHERE gtrid = ?")) {
            select.setBytes(1, bytes(gtrid));
            try (ResultSet rows = select.executeQuery()) {
                return rows.next() ? XaDecision.fromSql(rows.getString(1)) : null;
            }
        }
    }

    @Override
    public void forget(String gtrid) {
        requireNonNull(gtrid, "gtrid is null");
        forgetAll(Set.of(gtrid));
    }

    @Override
    public Set<String> decidedBefore(Duration age) {
        requireNonNull(age, "age is null");
        try (Connection connection = connect();
             PreparedStatement select = connection.prepareStatement(
                     "SELECT gtrid FROM _shardgate.xa_decisions WHERE decided_at <= NOW(6) - INTERVAL ? MICROSECOND")) {
            select.setLong(1, age.toNanos() / 1000);
            Set<String> gtrids = new HashSet<>();
            try (ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    gtrids.add(new String(rows.getBytes(1), StandardCharsets.UTF_8));
                }
            }
            return gtrids;
        } catch (SQLException e) {
            throw failure("cannot read the decisions older than " + age, e);
        }
    }

    @Override
    public int forgetAll(Collection<String> gtrids) {
        requireNonNull(gtrids, "gtrids is null");
        if (gtrids.isEmpty()) {
            return 0;
        }
        try (Connection connection = connect();
             PreparedStatement delete = connection.prepareStatement("DELETE FROM _shardgate.xa_decisions WHERE gtrid = ?")) {
            int deleted = 0;
            for (String gtrid : gtrids) {
                delete.setBytes(1, bytes(gtrid));
                deleted += delete.executeUpdate();
            }
            return deleted;
        } catch (SQLException e) {
            throw failure("cannot delete " + gtrids.size() + " decision(s)", e);
        }
    }

    private Connection connect() throws SQLException {
        return schema.connect(shard, dataSource);
    }

    private static byte[] bytes(String gtrid) {
        return gtrid.getBytes(StandardCharsets.UTF_8);
    }

    private XaException failure(String what, SQLException cause) {
        return new XaException("XA decision log on shard " + shard + ": " + what + ": " + FailureText.of(cause), cause);
    }
}
