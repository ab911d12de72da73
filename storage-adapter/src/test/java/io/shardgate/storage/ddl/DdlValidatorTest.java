package io.shardgate.storage.ddl;

import io.shardgate.errors.ErrorCode;
import io.shardgate.storage.Engine;
import io.shardgate.storage.StorageAdapters;
import io.shardgate.storage.aria.AriaAdapter;
import io.shardgate.storage.aria.AriaPlugin;
import io.shardgate.storage.capability.EngineCapabilities;
import io.shardgate.storage.capability.FactsFixture;
import io.shardgate.storage.capability.InnoDbCapabilities;
import io.shardgate.storage.capability.MyRocksCapabilities;
import io.shardgate.storage.capability.ServerFacts;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

/**
 * What the golden cases do not show: capabilities other than the two fixtures' (server version
 * included), and the fan-out.
 */
class DdlValidatorTest {
    private static final EngineCapabilities INNODB = InnoDbCapabilities.from(FactsFixture.load(FactsFixture.PLAIN));
    private static final EngineCapabilities ROCKSDB = MyRocksCapabilities.from(FactsFixture.load(FactsFixture.ROCKSDB_LZ4));

    private final DdlValidator validator = new DdlValidator();

    @Test
    void anEngineFromAnAdapterJarJoinsTheEngineClauseRules() {
        String create = "CREATE TABLE t (id INT PRIMARY KEY) ENGINE=Aria";
        assertThat(validator.validate(create, INNODB, "s0", false)).as("no Aria adapter: refused")
                .isInstanceOfSatisfying(DdlVerdict.Refused.class,
                        refused -> assertThat(refused.code()).isEqualTo(ErrorCode.ENGINE_MISMATCH));

        DdlValidator withAria = new DdlValidator(StorageAdapters.load(AriaPlugin.classLoader()));
        assertThat(withAria.validate(create, INNODB, "s0", false))
                .isEqualTo(new DdlVerdict.Accepted("CREATE TABLE t (id INT PRIMARY KEY) ENGINE=InnoDB", true));
        EngineCapabilities aria = new AriaAdapter().capabilities(FactsFixture.load(FactsFixture.PLAIN));
        assertThat(withAria.validate("CREATE TABLE t (id INT PRIMARY KEY) ENGINE=InnoDB", aria, "s2", false))
                .isEqualTo(new DdlVerdict.Accepted(create, true));
        assertThat(withAria.validate("CREATE TABLE c (id INT PRIMARY KEY, p INT REFERENCES t (id))", aria, "s2", false))
                .as("the Aria adapter's capabilities say: no foreign keys")
                .isInstanceOfSatisfying(DdlVerdict.Refused.class,
                        refused -> assertThat(refused.message()).contains("s2").contains("Aria"));
    }

    @Test
    void aTableOfASchemaThatIsNotShardedMayLiveInAnyEngine() {
        for (String engine : new String[] {"MyISAM", "Aria", "MEMORY", "CSV"}) {
            String create = "CREATE TABLE t (id INT PRIMARY KEY, body TEXT, FULLTEXT (body)) ENGINE=" + engine;
            assertThat(validator.validate(create, ROCKSDB, "s1", false, EngineScope.ANY_ENGINE))
                    .as("unchanged and unchecked: MyRocks' rules are not a %s table's", engine)
                    .isEqualTo(new DdlVerdict.Accepted(create, false));
            String alter = "ALTER TABLE t ENGINE=" + engine;
            assertThat(validator.validate(alter, INNODB, "s0", false, EngineScope.ANY_ENGINE)).isEqualTo(new DdlVerdict.Accepted(alter, false));
            assertThat(validator.validate(create, ROCKSDB, "s1", false, EngineScope.SHARD_ENGINE)).isInstanceOf(DdlVerdict.Refused.class);
        }
        assertThat(validator.validate("CREATE TABLE t (id INT PRIMARY KEY, body TEXT, FULLTEXT (body))", ROCKSDB, "s1", false,
                EngineScope.ANY_ENGINE)).as("no ENGINE=: the table is the shard's engine's").isInstanceOf(DdlVerdict.Refused.class);
        assertThat(validator.validate("CREATE TABLE t (id INT PRIMARY KEY) ENGINE=InnoDB", ROCKSDB, "s1", false, EngineScope.ANY_ENGINE))
                .isEqualTo(new DdlVerdict.Accepted("CREATE TABLE t (id INT PRIMARY KEY) ENGINE=ROCKSDB", true));
    }

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
        assertThat(refused.firstRefusal().code()).isEqualTo(ErrorCode.BLOCKING_DDL);

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
    void engineClausesBecomeEachShardsEngine() {
        Map<String, EngineCapabilities> shards = new LinkedHashMap<>();
        shards.put("s0", INNODB);
        shards.put("s1", ROCKSDB);

        String dump = "CREATE TABLE orders (id BIGINT PRIMARY KEY) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4";
        assertThat(validator.validateAll(dump, shards, false).statements()).containsExactly(
                Map.entry("s0", dump),
                Map.entry("s1", "CREATE TABLE orders (id BIGINT PRIMARY KEY) ENGINE=ROCKSDB DEFAULT CHARSET=utf8mb4"));
        assertThat(validator.validate(dump, INNODB, "s0", false)).isEqualTo(new DdlVerdict.Accepted(dump, false));
        assertThat(validator.validate(dump, ROCKSDB, "s1", false)).isEqualTo(new DdlVerdict.Accepted(
                "CREATE TABLE orders (id BIGINT PRIMARY KEY) ENGINE=ROCKSDB DEFAULT CHARSET=utf8mb4", true));

        String sysbench = "CREATE TABLE sbtest1(id INTEGER NOT NULL AUTO_INCREMENT, PRIMARY KEY (id)) /*! ENGINE = innodb */";
        assertThat(validator.validateAll(sysbench, shards, false).statements()).containsExactly(
                Map.entry("s0", sysbench),
                Map.entry("s1", "CREATE TABLE sbtest1(id INTEGER NOT NULL AUTO_INCREMENT, PRIMARY KEY (id)) /*! ENGINE = ROCKSDB */"));

        DdlFanOut memory = validator.validateAll("CREATE TABLE m (id INT PRIMARY KEY) ENGINE=MEMORY", shards, false);
        assertThat(memory.refusals()).extracting(DdlVerdict.Refused::code, DdlVerdict.Refused::shard, DdlVerdict.Refused::clause)
                .containsExactly(tuple(ErrorCode.ENGINE_MISMATCH, "s0", "ENGINE=MEMORY"),
                        tuple(ErrorCode.ENGINE_MISMATCH, "s1", "ENGINE=MEMORY"));
        assertThat(memory.firstRefusal().message()).isEqualTo(
                "Shard s0 runs InnoDB; ENGINE=MEMORY would put the table in another engine: leave ENGINE= out or name InnoDB");
    }

    @Test
    void executableCommentsFollowTheServersVersion() {
        String sql = "CREATE TABLE z (id INT PRIMARY KEY) /*M!100600 ENGINE=MEMORY */";
        assertThat(validator.validate(sql, withVersion(INNODB, "10.5.27-MariaDB"), "s0", false))
                .isEqualTo(new DdlVerdict.Accepted(sql, false));
        assertThat(validator.validate(sql, INNODB, "s0", false)).isInstanceOf(DdlVerdict.Refused.class);
        assertThat(validator.validate(sql, withVersion(INNODB, "unknown"), "s0", false))
                .as("an unreadable version runs every versioned comment").isInstanceOf(DdlVerdict.Refused.class);
    }

    private static EngineCapabilities withVersion(EngineCapabilities capabilities, String version) {
        return new EngineCapabilities(capabilities.engine(), version, capabilities.transactions(), capabilities.schema(),
                capabilities.compression(), capabilities.onlineDdl(), capabilities.columnFamilies());
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
        assertThat(Stream.of(ErrorCode.FOREIGN_KEY_UNSUPPORTED, ErrorCode.FULLTEXT_UNSUPPORTED, ErrorCode.SPATIAL_UNSUPPORTED,
                ErrorCode.TABLE_OPTION_UNSUPPORTED, ErrorCode.INVALID_KEY_BLOCK_SIZE, ErrorCode.CONFLICTING_COMPRESSION,
                ErrorCode.COMPRESSION_PROVIDER_NOT_LOADED, ErrorCode.ENGINE_MISMATCH, ErrorCode.ALTER_ALGORITHM_UNAVAILABLE,
                ErrorCode.BLOCKING_DDL, ErrorCode.DDL_NOT_UNDERSTOOD)).allSatisfy(code -> {
            assertThat(code.errno()).isPositive();
            assertThat(code.sqlState()).matches("[0-9A-Z]{5}");
            assertThat(code.description()).isNotBlank();
            assertThat(code.message("s9", Engine.INNODB.serverName(), "CLAUSE", "DETAIL")).contains("s9");
        });
    }

    @Test
    void aDumpsDisableAndEnableKeysPassUnchangedOnBothEngines() {
        for (String keys : java.util.List.of("/*!40000 ALTER TABLE `orders` DISABLE KEYS */", "/*!40000 ALTER TABLE `orders` ENABLE KEYS */",
                "ALTER TABLE orders DISABLE KEYS")) {
            assertThat(validator.validate(keys, INNODB, "s0", false)).as(keys).isEqualTo(new DdlVerdict.Accepted(keys, false));
            assertThat(validator.validate(keys, ROCKSDB, "s1", false)).as(keys).isEqualTo(new DdlVerdict.Accepted(keys, false));
        }
    }

    @Test
    void textTheParserBreaksOnIsNotUnderstoodNotAnInternalError() {
        // Druid throws its own DruidRuntimeException ("not support xa type INT") on these, not a ParserException.
        for (String sql : java.util.List.of("CREATE TEMPORARY TABLE tmp Xa INT)", "CREATE TEMPORARY TABLE tmp xa INT)")) {
            assertThat(validator.validate(sql, INNODB, "s0", false)).as(sql)
                    .isInstanceOfSatisfying(DdlVerdict.Refused.class, refused -> {
                        assertThat(refused.code()).isEqualTo(ErrorCode.DDL_NOT_UNDERSTOOD);
                        assertThat(refused.message()).doesNotContain("xa type");
                    });
        }
    }
}
