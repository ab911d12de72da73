package io.shardgate.proxy.frontend;

import io.netty.channel.EventLoop;
import io.shardgate.errors.ErrorCode;
import io.shardgate.proxy.config.DdlConfig;
import io.shardgate.proxy.protocol.ErrPacket;
import io.shardgate.storage.Engine;
import io.shardgate.storage.capability.InnoDbCapabilities;
import io.shardgate.storage.capability.ServerFacts;
import io.shardgate.storage.ddl.DdlValidator;
import io.shardgate.storage.ddl.DdlVerdict;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

import static org.assertj.core.api.Assertions.assertThat;

class DdlCostTest {
    private static final DdlConfig BOUNDS = new DdlConfig(15_000, 4L * 1024 * 1024);
    private static final ErrPacket REFUSAL = ErrPacket.of(ErrorCode.BLOCKING_DDL, "s0", "InnoDB", "ALGORITHM=COPY, LOCK=SHARED",
            DdlCost.ALLOW_BLOCKING);

    /** Sizes by shard, recording what was asked. */
    private static final class FakeSizes implements TableSizes {
        final Map<String, Size> sizes = new LinkedHashMap<>();
        final List<String> asked = new ArrayList<>();
        RuntimeException failure;

        @Override
        public CompletableFuture<Map<String, Size>> of(List<String> shards, String schema, String table, long countUpTo,
                                                       EventLoop loop) {
            asked.add(shards + " " + schema + "." + table + " up to " + countUpTo);
            if (failure != null) {
                return CompletableFuture.failedFuture(failure);
            }
            Map<String, Size> answer = new LinkedHashMap<>();
            shards.forEach(shard -> answer.put(shard, sizes.getOrDefault(shard, new Size(0, 0))));
            return CompletableFuture.completedFuture(answer);
        }
    }

    private static DdlGate.BlockingOnly blocking(String... shards) {
        List<DdlVerdict.Refused> refusals = new ArrayList<>();
        for (String shard : shards) {
            refusals.add(new DdlVerdict.Refused(ErrorCode.BLOCKING_DDL, shard, Engine.ROCKSDB, "ALGORITHM=COPY, LOCK=SHARED", "blocks"));
        }
        return new DdlGate.BlockingOnly(new DdlGate.Outcome("ALTER TABLE t ADD c INT", null, Map.of()), refusals);
    }

    @Test
    void theTableIsReadFromTheStatementsTokens() {
        assertThat(DdlCost.table("ALTER TABLE t ADD COLUMN c INT")).contains(new DdlCost.Table(null, "t"));
        assertThat(DdlCost.table("alter online ignore table `sb`.`sb``test` add c int")).contains(new DdlCost.Table("sb", "sb`test"));
        assertThat(DdlCost.table("ALTER TABLE IF EXISTS sb.t ENGINE=InnoDB")).contains(new DdlCost.Table("sb", "t"));
        assertThat(DdlCost.table("CREATE INDEX k_1 ON sbtest1(k)")).contains(new DdlCost.Table(null, "sbtest1"));
        assertThat(DdlCost.table("CREATE UNIQUE INDEX IF NOT EXISTS u /* ON x */ ON sb.t (a, b) ALGORITHM=COPY"))
                .contains(new DdlCost.Table("sb", "t"));
        assertThat(DdlCost.table("DROP INDEX k ON `t`")).contains(new DdlCost.Table(null, "t"));
        assertThat(DdlCost.table("ALTER TABLE")).isEmpty();
    }

    @Test
    void aSmallTableOnEveryBlockingShardRunsWithoutTheFlag() {
        FakeSizes sizes = new FakeSizes();
        sizes.sizes.put("s0", new TableSizes.Size(15_000, 4L * 1024 * 1024));
        sizes.sizes.put("s1", new TableSizes.Size(10_000, 0));
        ErrPacket verdict = new DdlCost(BOUNDS, sizes).check("CREATE INDEX k_1 ON sbtest1(k)", "sbtest", REFUSAL,
                blocking("s0", "s1"), null).join();
        assertThat(verdict).as("at both bounds, not above").isNull();
        assertThat(sizes.asked).containsExactly("[s0, s1] sbtest.sbtest1 up to 15001");
    }

    @Test
    void aTableAboveEitherBoundIsRefusedWithItsSizeAndTheBounds() {
        FakeSizes sizes = new FakeSizes();
        sizes.sizes.put("s1", new TableSizes.Size(1_000_000, 0));
        ErrPacket rows = new DdlCost(BOUNDS, sizes).check("ALTER TABLE big ADD c INT", "sb", REFUSAL, blocking("s0", "s1"), null).join();
        assertThat(rows.errno()).isEqualTo(1846);
        assertThat(rows.sqlState()).isEqualTo("0A000");
        assertThat(rows.message()).isEqualTo("ALGORITHM=COPY, LOCK=SHARED is not supported. Reason: it blocks writes on shard s1"
                + " (ROCKSDB) for the whole operation, and table `sb`.`big` there holds about 1000000 rows and about 0 bytes: above the"
                + " 15000 rows or 4194304 bytes up to which blocking DDL runs without the session's consent"
                + " (ddl.blocking_max_rows, ddl.blocking_max_bytes). Try SET SESSION shardgate_allow_blocking_ddl = ON");
        sizes.sizes.put("s1", new TableSizes.Size(10, 4L * 1024 * 1024 + 1));
        ErrPacket bytes = new DdlCost(BOUNDS, sizes).check("ALTER TABLE big ADD c INT", "sb", REFUSAL, blocking("s1"), null).join();
        assertThat(bytes.message()).contains("holds about 10 rows and about 4194305 bytes");
        sizes.sizes.put("s1", new TableSizes.Size(15_001, 0));
        ErrPacket counted = new DdlCost(BOUNDS, sizes).check("ALTER TABLE big ADD c INT", "sb", REFUSAL, blocking("s1"), null).join();
        assertThat(counted.message()).as("the bounded count's answer").contains("holds more than 15000 rows and about 0 bytes");
    }

    @Test
    void aZeroBoundKeepsEveryRefusalWithoutAskingTheShards() {
        FakeSizes sizes = new FakeSizes();
        sizes.sizes.put("s0", new TableSizes.Size(0, 0));
        for (DdlConfig bounds : List.of(new DdlConfig(0, 100), new DdlConfig(100, 0))) {
            assertThat(new DdlCost(bounds, sizes).check("ALTER TABLE t ADD c INT", "sb", REFUSAL, blocking("s0"), null).join())
                    .isSameAs(REFUSAL);
        }
        assertThat(sizes.asked).isEmpty();
    }

    @Test
    void anUnknownTableOrSizeKeepsTheRefusalAsItWas() {
        FakeSizes sizes = new FakeSizes();
        DdlCost cost = new DdlCost(BOUNDS, sizes);
        assertThat(cost.check("ALTER TABLE t ADD c INT", null, REFUSAL, blocking("s0"), null).join())
                .as("no schema to look in").isSameAs(REFUSAL);
        assertThat(sizes.asked).isEmpty();
        sizes.failure = new IllegalStateException("shard down");
        assertThat(cost.check("ALTER TABLE t ADD c INT", "sb", REFUSAL, blocking("s0"), null).join()).isSameAs(REFUSAL);
    }

    @Test
    void theGateOffersTheAllowedStatementOnlyForBlockingRefusals() {
        ServerFacts facts = new ServerFacts("10.11.6-MariaDB", Map.of("INNODB", "DEFAULT"), Map.of(),
                Map.of("innodb_lock_wait_timeout", "50", "innodb_page_size", "16384"), Map.of(), Map.of());
        DdlGate gate = new DdlGate(List.of("s0"), new DdlValidator(), shard -> InnoDbCapabilities.from(facts), schema -> true);
        DdlGate.Outcome copy = gate.check("ALTER TABLE t ADD COLUMN c INT, ALGORITHM=COPY", false, "sb");
        assertThat(copy.refusal().errno()).isEqualTo(1846);
        assertThat(copy.bySize()).isNotNull();
        assertThat(copy.bySize().allowed().refusal()).isNull();
        assertThat(copy.bySize().allowed().sql()).startsWith("ALTER TABLE t ADD COLUMN c INT, ALGORITHM=COPY");
        assertThat(copy.bySize().refusals()).extracting(DdlVerdict.Refused::shard).containsExactly("s0");
        DdlGate.Outcome aria = gate.check("CREATE TABLE t (id INT PRIMARY KEY) ENGINE=Aria", false, "sb");
        assertThat(aria.refusal()).isNotNull();
        assertThat(aria.bySize()).as("not a blocking refusal").isNull();
        assertThat(gate.check("ALTER TABLE t ADD COLUMN c INT, ALGORITHM=COPY", true, "sb").bySize()).isNull();
        assertThat(Optional.ofNullable(gate.check("SELECT 1", false, "sb"))).isEmpty();
    }
}
