package io.shardgate.storage.ddl;

import io.shardgate.storage.Engine;
import io.shardgate.storage.capability.EngineCapabilities;
import io.shardgate.storage.capability.FactsFixture;
import io.shardgate.storage.capability.InnoDbCapabilities;
import io.shardgate.storage.capability.MyRocksCapabilities;
import io.shardgate.storage.capability.ServerFacts;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** What the golden cases do not show: capabilities other than the two fixtures', and the fan-out. */
class DdlValidatorTest {
    private static final EngineCapabilities INNODB = InnoDbCapabilities.from(FactsFixture.load(FactsFixture.PLAIN));
    private static final EngineCapabilities ROCKSDB = MyRocksCapabilities.from(FactsFixture.load(FactsFixture.ROCKSDB_LZ4));

    private final DdlValidator validator = new DdlValidator();

    @Test
    void pageCompressionNeedsTheCurrentAlgorithmsProvider() {
        ServerFacts lz4 = FactsFixture.withVariable(FactsFixture.load(FactsFixture.PLAIN),
                "innodb_compression_algorithm", "lz4");
        DdlVerdict verdict = validator.validate("CREATE TABLE z (id INT PRIMARY KEY) PAGE_COMPRESSED=1",
                InnoDbCapabilities.from(lz4), "s0", false);
        assertThat(DdlValidatorCasesTest.show(verdict)).isEqualTo("REFUSE COMPRESSION_PROVIDER_NOT_LOADED 4185 HY000"
                + " Shard s0 (InnoDB) cannot use PAGE_COMPRESSED=1 with innodb_compression_algorithm=lz4:"
                + " its provider plugin is not loaded (available: none, zlib)");
        ServerFacts loaded = FactsFixture.withStatus(lz4, "Innodb_have_lz4", "ON");
        assertThat(validator.validate("CREATE TABLE z (id INT PRIMARY KEY) PAGE_COMPRESSED=1",
                InnoDbCapabilities.from(loaded), "s0", false)).isInstanceOf(DdlVerdict.Accepted.class);
    }

    @Test
    void keyBlockSizesFollowThePageSize() {
        EngineCapabilities small = InnoDbCapabilities.from(FactsFixture.withVariable(FactsFixture.load(FactsFixture.PLAIN),
                "innodb_page_size", "8192"));
        assertThat(DdlValidatorCasesTest.show(validator.validate("CREATE TABLE z (id INT) KEY_BLOCK_SIZE=16", small, "s0", false)))
                .endsWith("does not accept KEY_BLOCK_SIZE=16: valid values are 0, 1, 2, 4, 8");
        EngineCapabilities large = InnoDbCapabilities.from(FactsFixture.withVariable(FactsFixture.load(FactsFixture.PLAIN),
                "innodb_page_size", "65536"));
        assertThat(DdlValidatorCasesTest.show(validator.validate("CREATE TABLE z (id INT) KEY_BLOCK_SIZE=8", large, "s0", false)))
                .endsWith("does not accept KEY_BLOCK_SIZE=8: valid values are none with this innodb_page_size");
    }

    @Test
    void readOnlyCompressedTables() {
        EngineCapabilities readOnly = InnoDbCapabilities.from(FactsFixture.withVariable(
                FactsFixture.load(FactsFixture.PLAIN), "innodb_read_only_compressed", "ON"));
        assertThat(DdlValidatorCasesTest.show(validator.validate("CREATE TABLE z (id INT) ROW_FORMAT=COMPRESSED",
                readOnly, "s0", false)))
                .isEqualTo("REFUSE TABLE_OPTION_UNSUPPORTED 1478 HY000 Shard s0 (InnoDB) does not support the table"
                        + " option ROW_FORMAT=COMPRESSED: innodb_read_only_compressed=ON makes compressed tables read-only");
    }

    @Test
    void aStatementGoesToAllShardsOrNone() {
        Map<String, EngineCapabilities> shards = new LinkedHashMap<>();
        shards.put("s0", INNODB);
        shards.put("s1", ROCKSDB);

        DdlFanOut refused = validator.validateAll("ALTER TABLE t ADD INDEX (a)", shards, false);
        assertThat(refused.isRefused()).isTrue();
        assertThat(refused.statements()).isEmpty();
        assertThat(refused.firstRefusal().shard()).isEqualTo("s1");
        assertThat(refused.firstRefusal().code()).isEqualTo(DdlRefusal.BLOCKING_DDL);

        DdlFanOut allowed = validator.validateAll("ALTER TABLE t ADD INDEX (a)", shards, true);
        assertThat(allowed.isRefused()).isFalse();
        assertThat(allowed.statements()).containsExactly(
                Map.entry("s0", "ALTER TABLE t ADD INDEX (a), ALGORITHM=NOCOPY, LOCK=NONE"),
                Map.entry("s1", "ALTER TABLE t ADD INDEX (a), ALGORITHM=INPLACE, LOCK=SHARED"));
        assertThatThrownBy(allowed::firstRefusal).hasMessage("accepted on every shard");
        assertThatThrownBy(() -> validator.validateAll("SELECT 1", Map.of(), false))
                .hasMessage("no shards to check the statement against");
    }

    @Test
    void refusalsCarryShardEngineAndClause() {
        DdlVerdict.Refused refused = (DdlVerdict.Refused) validator.validate(
                "CREATE TABLE c (id INT PRIMARY KEY, pid INT REFERENCES p(id))", ROCKSDB, "s1", false);
        assertThat(refused.shard()).isEqualTo("s1");
        assertThat(refused.engine()).isEqualTo(Engine.ROCKSDB);
        assertThat(refused.clause()).isEqualTo("pid REFERENCES p (id)");
        assertThat(refused.errno()).isEqualTo(1235);
        assertThat(refused.sqlState()).isEqualTo("42000");
    }

    @Test
    void theCatalogIsData() {
        assertThat(Arrays.stream(DdlRefusal.values())).allSatisfy(code -> {
            assertThat(code.errno()).isPositive();
            assertThat(code.sqlState()).matches("[0-9A-Z]{5}");
            assertThat(code.description()).isNotBlank();
            assertThat(code.message("s9", Engine.INNODB, "CLAUSE", "DETAIL")).contains("s9");
        });
    }
}
