package io.shardgate.proxy.jobs;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.shardgate.proxy.config.ConfigLoader;
import io.shardgate.proxy.topology.TopologyDocument;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A job request checked against a three-shard topology: s0 -40, s1 40-c0 (to split), s2 c0- on MyRocks. */
class JobSpecsTest {
    static final String TOPOLOGY = """
            {"shards": [
               {"name": "s0", "primary": "127.0.0.1:24001", "key_range": "-40"},
               {"name": "s1", "primary": "127.0.0.1:24002", "key_range": "40-c0"},
               {"name": "s2", "primary": "127.0.0.1:24003", "key_range": "c0-", "engine": "rocksdb"}],
             "schemas": [{"name": "shop", "tables": {
               "orders": {"shard_key": "id", "vindex": "hash"},
               "settings": {"type": "unsharded", "shard": "s0"},
               "audit": {"type": "unsharded", "shard": "s1"}}}]}
            """;

    static TopologyDocument topology() {
        return new ConfigLoader().topology(TOPOLOGY);
    }

    private final JobSpecs specs = new JobSpecs(Set.of("innodb", "rocksdb")::contains);
    private final ObjectMapper json = new ObjectMapper();

    private JsonNode reshard(String... ranges) throws Exception {
        StringBuilder targets = new StringBuilder();
        for (int i = 0; i < ranges.length; i++) {
            targets.append(i == 0 ? "" : ",").append("{\"name\": \"t").append(i).append("\", \"primary\": \"10.0.0.")
                    .append(i + 1).append(":3306\", \"key_range\": \"").append(ranges[i]).append("\"}");
        }
        return json.readTree("{\"source\": \"s1\", \"targets\": [" + targets + "]}");
    }

    @Test
    void aSplitThatCoversTheSourceExactlyIsStoredWithDefaults() throws Exception {
        JsonNode spec = specs.check(JobKind.RESHARD, reshard("80-c0", "40-80"), topology());
        ReshardSpec read = ReshardSpec.fromJson(spec);
        assertThat(read.source()).isEqualTo("s1");
        assertThat(read.targets()).extracting(ReshardSpec.Target::keyRange).containsExactly("80-c0", "40-80");
        assertThat(read.targets()).extracting(ReshardSpec.Target::engine).containsOnly("innodb");
        assertThat(read.targets().get(0).replicas()).isEmpty();
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "40-90|80-c0|targets[1].key_range: 80-c0 overlaps targets[0].key_range 40-90",
            "40-70|80-c0|targets[1].key_range: the targets leave 70-80 of source s1 (40-c0) uncovered",
            "50-80|80-c0|targets[0].key_range: the targets leave 40-50 of source s1 (40-c0) uncovered",
            "40-80|80-b0|targets[1].key_range: the targets leave b0-c0 of source s1 (40-c0) uncovered",
            "40-80|80-|targets[1].key_range: 80- reaches beyond source s1 (40-c0)",
            "40-80|80-zz|targets[1].key_range: key range '80-zz': bound 'zz' must be 1 to 16 hex digits",
    })
    void overlapsGapsAndBadRangesNameTheTarget(String first, String second, String message) throws Exception {
        assertThatThrownBy(() -> specs.check(JobKind.RESHARD, reshard(first, second), topology()))
                .isInstanceOf(InvalidSpecException.class).hasMessage(message);
    }

    @Test
    void unknownShardsExistingTargetsBadAddressesAndEnginesNameTheirField() throws Exception {
        TopologyDocument topology = topology();
        assertThatThrownBy(() -> specs.check(JobKind.RESHARD, json.readTree("{\"source\": \"s9\", \"targets\": []}"), topology))
                .hasMessage("source: unknown shard s9 (the topology has s0, s1, s2)");
        assertThatThrownBy(() -> specs.check(JobKind.RESHARD, json.readTree("{\"source\": \"s1\", \"targets\": []}"), topology))
                .hasMessageStartingWith("targets: expected a non-empty array");
        assertThatThrownBy(() -> specs.check(JobKind.RESHARD, json.readTree(
                "{\"source\": \"s1\", \"targets\": [{\"name\": \"s2\", \"primary\": \"h:1\", \"key_range\": \"40-c0\"}]}"), topology))
                .hasMessage("targets[0].name: shard s2 exists already (a target is a new shard)");
        assertThatThrownBy(() -> specs.check(JobKind.RESHARD, json.readTree(
                "{\"source\": \"s1\", \"targets\": [{\"name\": \"t\", \"primary\": \"h\", \"key_range\": \"40-c0\"}]}"), topology))
                .hasMessage("targets[0].primary: expected HOST:PORT, got 'h'");
        assertThatThrownBy(() -> specs.check(JobKind.RESHARD, json.readTree("{\"source\": \"s1\", \"targets\": [{\"name\": \"t\", "
                + "\"primary\": \"h:1\", \"engine\": \"myisam\", \"key_range\": \"40-c0\"}]}"), topology))
                .hasMessage("targets[0].engine: unknown engine 'myisam'");
        assertThatThrownBy(() -> specs.check(JobKind.RESHARD, json.readTree("[]"), topology)).hasMessage("spec: expected a JSON object");
    }

    @Test
    void aMoveFindsAnUnshardedTablesShardAndDefaultsToTheTargetsEngine() throws Exception {
        MoveSpec move = MoveSpec.fromJson(specs.check(JobKind.MOVE,
                json.readTree("{\"tables\": [\"shop.settings\"], \"target\": \"s2\"}"), topology()));
        assertThat(move).isEqualTo(new MoveSpec(java.util.List.of("shop.settings"), "s0", "s2", "rocksdb"));
        MoveSpec engineOnly = MoveSpec.fromJson(specs.check(JobKind.MOVE,
                json.readTree("{\"tables\": [\"shop.settings\"], \"target\": \"s0\", \"engine\": \"RocksDB\"}"), topology()));
        assertThat(engineOnly.engine()).isEqualTo("rocksdb");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "{\"tables\": [\"shop.nope\"], \"target\": \"s2\"}|tables[0]: unknown table shop.nope (not in the topology's schemas)",
            "{\"tables\": [\"nodot\"], \"target\": \"s2\"}|tables[0]: expected schema.table, got 'nodot'",
            "{\"tables\": [], \"target\": \"s2\"}|tables: expected a non-empty array of schema.table",
            "{\"tables\": [\"shop.settings\"], \"target\": \"s7\"}|target: unknown shard s7 (the topology has s0, s1, s2)",
            "{\"tables\": [\"shop.settings\"], \"target\": \"s0\"}|target: the tables are on s0 in innodb already: nothing to move",
            "{\"tables\": [\"shop.orders\"], \"target\": \"s2\"}|source: give the shard the tables move from (they are not unsharded tables with a shard of their own)",
            "{\"tables\": [\"shop.settings\", \"shop.audit\"], \"target\": \"s2\"}|tables[1]: shop.audit lives on s1, the tables before it on s0: move one shard's tables per job",
            "{\"tables\": [\"shop.settings\"], \"source\": \"s1\", \"target\": \"s2\"}|source: the tables live on s0, not s1",
    })
    void aBadMoveNamesItsField(String body, String message) throws Exception {
        assertThatThrownBy(() -> specs.check(JobKind.MOVE, json.readTree(body), topology()))
                .isInstanceOf(InvalidSpecException.class).hasMessage(message);
    }

    @Test
    void maxRowsPerSecondIsKeptForBothKindsAndZeroByDefault() throws Exception {
        com.fasterxml.jackson.databind.node.ObjectNode request = (com.fasterxml.jackson.databind.node.ObjectNode) reshard("40-80", "80-c0");
        JsonNode unlimited = specs.check(JobKind.RESHARD, request, topology());
        assertThat(unlimited.has("max_rows_per_second")).isFalse();
        assertThat(ReshardSpec.fromJson(unlimited).maxRowsPerSecond()).isZero();
        request.put("max_rows_per_second", 5000);
        JsonNode stored = specs.check(JobKind.RESHARD, request, topology());
        assertThat(stored.path("max_rows_per_second").asLong()).isEqualTo(5000);
        assertThat(ReshardSpec.fromJson(stored).maxRowsPerSecond()).isEqualTo(5000);
        MoveSpec move = MoveSpec.fromJson(specs.check(JobKind.MOVE,
                json.readTree("{\"tables\": [\"shop.settings\"], \"target\": \"s2\", \"max_rows_per_second\": 200}"), topology()));
        assertThat(move).isEqualTo(new MoveSpec(java.util.List.of("shop.settings"), "s0", "s2", "rocksdb", 200));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {"-1", "1.5", "\"fast\"", "true"})
    void aBadMaxRowsPerSecondNamesItsField(String value) throws Exception {
        JsonNode body = json.readTree("{\"tables\": [\"shop.settings\"], \"target\": \"s2\", \"max_rows_per_second\": " + value + "}");
        assertThatThrownBy(() -> specs.check(JobKind.MOVE, body, topology()))
                .isInstanceOf(InvalidSpecException.class).hasMessageStartingWith("max_rows_per_second: expected a whole number >= 0");
    }
}
