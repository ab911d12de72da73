package io.shardgate.storage.it;

import io.shardgate.storage.Engine;
import io.shardgate.storage.capability.AlterAlgorithm;
import io.shardgate.storage.capability.AlterLock;
import io.shardgate.storage.ddl.DdlValidator;
import io.shardgate.storage.ddl.DdlVerdict;
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
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * The online-DDL tables against real servers, the same contract for every engine: for each kind
 * of ALTER, the statement as the validator rewrites it runs, and (for an exact rule) asking for
 * one step cheaper (the previous ALGORITHM, or the previous LOCK) is refused by the server with
 * ER 1845/1846, so the table's choice is the least blocking one. Where the algorithm depends on
 * what the validator cannot see, the rewrite's {@code LOCK=NONE} makes the server refuse rather
 * than block.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class OnlineDdlContractIT {
    private static final Pattern CLAUSES = Pattern.compile(", ALGORITHM=(\\w+), LOCK=(\\w+)$");

    /** The ALTER samples, each with the engines it applies to. */
    private static final List<Sample> SAMPLES = List.of(
            new Sample("ADD INDEX ka (a)", Engine.INNODB, Engine.ROCKSDB),
            new Sample("ADD UNIQUE INDEX ua (a)", Engine.INNODB, Engine.ROCKSDB),
            new Sample("ADD FULLTEXT INDEX ft (body)", Engine.INNODB),
            new Sample("ADD SPATIAL INDEX sp (g)", Engine.INNODB),
            new Sample("DROP INDEX kb", Engine.INNODB, Engine.ROCKSDB),
            new Sample("RENAME INDEX kb TO kb2", Engine.INNODB, Engine.ROCKSDB),
            new Sample("DROP PRIMARY KEY, ADD PRIMARY KEY (id, a)", Engine.INNODB, Engine.ROCKSDB),
            new Sample("DROP PRIMARY KEY", Engine.INNODB, Engine.ROCKSDB),
            new Sample("DROP FOREIGN KEY fk1", Engine.INNODB),
            new Sample("ADD COLUMN c INT", Engine.INNODB, Engine.ROCKSDB),
            new Sample("ADD COLUMN c INT FIRST", Engine.INNODB, Engine.ROCKSDB),
            new Sample("ADD COLUMN z INT AUTO_INCREMENT, ADD UNIQUE KEY uz (z)", Engine.INNODB, Engine.ROCKSDB),
            new Sample("DROP COLUMN body", Engine.INNODB, Engine.ROCKSDB),
            new Sample("MODIFY COLUMN b VARCHAR(20)", Engine.INNODB, Engine.ROCKSDB),
            new Sample("RENAME COLUMN a TO a2", Engine.INNODB, Engine.ROCKSDB),
            new Sample("ALTER COLUMN a SET DEFAULT 5", Engine.INNODB, Engine.ROCKSDB),
            new Sample("FORCE", Engine.INNODB, Engine.ROCKSDB),
            new Sample("COMMENT = 'x'", Engine.INNODB, Engine.ROCKSDB),
            new Sample("AUTO_INCREMENT = 100", Engine.INNODB, Engine.ROCKSDB),
            new Sample("ROW_FORMAT = DYNAMIC", Engine.INNODB),
            new Sample("CONVERT TO CHARACTER SET utf8mb4", Engine.INNODB, Engine.ROCKSDB),
            new Sample("CONVERT TO CHARACTER SET latin1", Engine.INNODB, Engine.ROCKSDB),
            new Sample("ADD COLUMN c INT, ADD INDEX kc (c)", Engine.INNODB, Engine.ROCKSDB),
            new Sample("DROP INDEX kb, ADD INDEX kb (b, a)", Engine.INNODB, Engine.ROCKSDB),
            new Sample("RENAME TO t2, ADD INDEX ka (a)", Engine.INNODB, Engine.ROCKSDB));

    private EngineShards shards;
    private final DdlValidator validator = new DdlValidator();

    record Sample(String alter, List<Engine> engines) {
        Sample(String alter, Engine... engines) {
            this(alter, List.of(engines));
        }
    }

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
    List<DynamicTest> leastBlockingChoices() {
        List<DynamicTest> tests = new ArrayList<>();
        for (Sample sample : SAMPLES) {
            for (Engine engine : sample.engines()) {
                tests.add(DynamicTest.dynamicTest(engine.configName() + ": " + sample.alter(), () -> contract(engine, sample)));
            }
        }
        return tests;
    }

    /**
     * InnoDB operations whose algorithm depends on the old definition or the session: without
     * blocking allowed the validator adds only {@code LOCK=NONE}, and the server then runs them
     * when it can do so without blocking and refuses them (1846) when it cannot.
     */
    @TestFactory
    List<DynamicTest> lockOnlyRewritesRunOrAreRefusedNeverBlock() {
        Map<String, Integer> cases = new java.util.LinkedHashMap<>();
        cases.put("MODIFY COLUMN b VARCHAR(20)", null);
        cases.put("MODIFY COLUMN b VARCHAR(10) NOT NULL", null);
        cases.put("MODIFY COLUMN a BIGINT", 1846);
        cases.put("CHANGE COLUMN b b2 VARCHAR(10)", null);
        cases.put("CONVERT TO CHARACTER SET latin1", 1846);
        cases.put("ADD CONSTRAINT fk2 FOREIGN KEY (a) REFERENCES p (id)", 1846);
        List<DynamicTest> tests = new ArrayList<>();
        cases.forEach((alter, expected) -> tests.add(DynamicTest.dynamicTest("innodb: " + alter, () -> {
            DdlVerdict verdict = validator.validate("ALTER TABLE t " + alter, shards.capabilities(Engine.INNODB), "s", false);
            String rewritten = ((DdlVerdict.Accepted) verdict).sql();
            assertThat(rewritten).endsWith(", LOCK=NONE");
            assertThat(run(Engine.INNODB, rewritten)).as(rewritten).isEqualTo(expected);
        })));
        return tests;
    }

    private void contract(Engine engine, Sample sample) throws SQLException {
        String sql = "ALTER TABLE t " + sample.alter();
        DdlVerdict verdict = validator.validate(sql, shards.capabilities(engine), "s", true);
        assertThat(verdict).isInstanceOf(DdlVerdict.Accepted.class);
        String rewritten = ((DdlVerdict.Accepted) verdict).sql();
        assertThat(run(engine, rewritten)).as(rewritten).isNull();

        Matcher clauses = CLAUSES.matcher(rewritten);
        if (!clauses.find()) {
            return;
        }
        AlterAlgorithm algorithm = AlterAlgorithm.valueOf(clauses.group(1));
        AlterLock lock = AlterLock.valueOf(clauses.group(2));
        if (algorithm != AlterAlgorithm.INSTANT) {
            String cheaper = sql + ", ALGORITHM=" + AlterAlgorithm.values()[algorithm.ordinal() - 1] + ", LOCK=" + lock;
            assertThat(run(engine, cheaper)).as(cheaper).isIn(1845, 1846);
        }
        if (lock != AlterLock.NONE && algorithm != AlterAlgorithm.COPY) {
            String weaker = sql + ", ALGORITHM=" + algorithm + ", LOCK=" + AlterLock.values()[lock.ordinal() - 1];
            assertThat(run(engine, weaker)).as(weaker).isIn(1845, 1846);
        }
    }

    /** Runs one ALTER on a fresh fixture; returns null on success, else the error number. */
    private Integer run(Engine engine, String alter) throws SQLException {
        try (Connection connection = shards.node(engine).connect(); Statement statement = connection.createStatement()) {
            fixture(statement, engine);
            try {
                statement.execute(alter);
                return null;
            } catch (SQLException e) {
                if (e.getErrorCode() != 1845 && e.getErrorCode() != 1846) {
                    fail(alter + " failed with " + e.getErrorCode() + ": " + e.getMessage());
                }
                return e.getErrorCode();
            }
        }
    }

    private static void fixture(Statement statement, Engine engine) throws SQLException {
        statement.execute("DROP DATABASE IF EXISTS ol");
        statement.execute("CREATE DATABASE ol");
        statement.execute("USE ol");
        statement.execute("CREATE TABLE p (id INT PRIMARY KEY) ENGINE=InnoDB");
        statement.execute("INSERT INTO p VALUES (1), (2)");
        if (engine.equals(Engine.INNODB)) {
            statement.execute("CREATE TABLE t (id INT PRIMARY KEY, a INT NOT NULL, b VARCHAR(10), body TEXT,"
                    + " g POINT NOT NULL, pid INT, KEY kb (b), CONSTRAINT fk1 FOREIGN KEY (pid) REFERENCES p (id))");
            statement.execute("INSERT INTO t VALUES (1, 1, 'a', 'x', POINT(1, 1), 1), (2, 2, 'b', 'y', POINT(2, 2), 2)");
        } else {
            statement.execute("CREATE TABLE t (id INT PRIMARY KEY, a INT NOT NULL, b VARCHAR(10), body TEXT,"
                    + " pid INT, KEY kb (b))");
            statement.execute("INSERT INTO t VALUES (1, 1, 'a', 'x', 1), (2, 2, 'b', 'y', 2)");
        }
    }
}
