package io.shardgate.replication.diff;

import java.sql.Connection;
import java.sql.SQLException;

/** Opens a new connection to one server (a pool, a DriverManager URL, a test node). */
@FunctionalInterface
public interface ConnectionSource {

    Connection connect() throws SQLException;
}
