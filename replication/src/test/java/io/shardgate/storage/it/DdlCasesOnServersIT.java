package io.shardgate.storage.it;

import io.shardgate.storage.Engine;
import io.shardgate.storage.ddl.DdlValidator;
import io.shardgate.storage.ddl.DdlVerdict;
import io.shardgate.storage.ddl.ValidatorCases;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.TestInstance;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * storage-adapter's DDL golden cases against real servers: with capabilities probed from a live
 * InnoDB and a live MyRocks server the validator decides exactly as with the captured facts, and
 * every statement it accepts (as rewritten) runs on a server of that engine, or fails with the
 * error the case documents. So the added ALGORITHM/LOCK clauses are valid SQL in every position.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DdlCasesOnServersIT {
    private EngineShards shards;
    private final DdlValidator validator = new DdlValidator();

    @BeforeAll
    void start() {
        shards = EngineShards.start();
    }

    @AfterAll
    void stop() {
        if (shards != null) {
            shards.close();
        }
    }

    @TestFactory
    List<DynamicTest> goldenCasesOnServers() {
        List<DynamicTest> tests = new ArrayList<>();
        for (ValidatorCases.Case each : ValidatorCases.load()) {
            tests.add(DynamicTest.dynamicTest("innodb " + each, () ->
                    check(Engine.INNODB, "s0", each, each.innodb(), each.innodbServerError())));
            tests.add(DynamicTest.dynamicTest("rocksdb " + each, () ->
                    check(Engine.ROCKSDB, "s1", each, each.rocksdb(), each.rocksdbServerError())));
        }
        return tests;
    }

    private void check(Engine engine, String shard, ValidatorCases.Case each, String expected, int serverError)
            throws SQLException {
        DdlVerdict verdict = validator.validate(each.sql(), shards.capabilities(engine), shard, each.allow());
        assertThat(show(verdict)).as("live capabilities decide as the captured facts do").isEqualTo(expected);
        if (verdict instanceof DdlVerdict.Accepted accepted) {
            assertThat(run(engine, accepted.sql())).as(accepted.sql()).isEqualTo(serverError);
        }
    }

    /** Runs one statement on a fresh fixture; 0 on success, else the error number. */
    private int run(Engine engine, String sql) throws SQLException {
        try (Connection connection = shards.node(engine).connect(); Statement statement = connection.createStatement()) {
            statement.execute("DROP DATABASE IF EXISTS dc");
            statement.execute("DROP DATABASE IF EXISTS shop");
            statement.execute("CREATE DATABASE dc");
            statement.execute("CREATE DATABASE shop");
            statement.execute("USE dc");
            statement.execute("SET GLOBAL innodb_compression_algorithm = zlib");
            statement.execute("CREATE TABLE p (id INT PRIMARY KEY)");
            statement.execute("CREATE TABLE y (id INT PRIMARY KEY)");
            statement.execute(engine.equals(Engine.INNODB)
                    ? "CREATE TABLE t (id INT PRIMARY KEY, a INT, b VARCHAR(10), body TEXT, g POINT NOT NULL, KEY kb (b))"
                    : "CREATE TABLE t (id INT PRIMARY KEY, a INT, b VARCHAR(10), body TEXT, KEY kb (b))");
            try {
                statement.execute(sql);
                return 0;
            } catch (SQLException e) {
                return e.getErrorCode();
            }
        }
    }

    private static String show(DdlVerdict verdict) {
        if (verdict instanceof DdlVerdict.Accepted accepted) {
            return accepted.rewritten() ? "REWRITE " + accepted.sql() : "ACCEPT";
        }
        DdlVerdict.Refused refused = (DdlVerdict.Refused) verdict;
        return "REFUSE " + refused.code() + " " + refused.errno() + " " + refused.sqlState() + " " + refused.message();
    }
}
