package io.shardgate.proxy.config;

import io.shardgate.router.schema.ShardedTable;
import io.shardgate.router.value.SqlValue;
import io.shardgate.router.vindex.ListVindex;
import io.shardgate.router.vindex.RangeVindex;
import io.shardgate.storage.Engine;
import io.shardgate.storage.StorageAdapters;
import io.shardgate.storage.aria.AriaAdapter;
import io.shardgate.storage.aria.AriaPlugin;
import org.junit.jupiter.api.Test;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ConfigLoaderTest {
    private static final String MINIMAL = """
            admin: { token: change-me }
            users:
              - { name: app, password: app }
            backend_user: { name: shardgate, password: secret }
            shards:
              - name: s0
                primary: 127.0.0.1:24001
            """;

    private final ConfigLoader loader = new ConfigLoader();

    @Test
    void aShardMayNameAnEngineDeclaredOnlyByAnAdapterOnTheClassPath() {
        String aria = MINIMAL.replace("name: s0", "name: s0\n    engine: aria");
        assertThatThrownBy(() -> loader.parse(aria))
                .isInstanceOf(ConfigException.class)
                .hasMessage("shards[0].engine: unknown engine 'aria' (expected one of: innodb, rocksdb)");

        ConfigLoader withAria = new ConfigLoader(StorageAdapters.load(AriaPlugin.classLoader()));
        ShardConfig shard = withAria.parse(aria).shards().get(0);
        assertThat(shard.engine()).isEqualTo(AriaAdapter.ARIA);
        assertThat(shard.engine().serverName()).isEqualTo("Aria");
        assertThat(withAria.parse(MINIMAL.replace("name: s0", "name: s0\n    engine: ARIA")).shards().get(0).engine())
                .isEqualTo(AriaAdapter.ARIA);
        assertThatThrownBy(() -> withAria.parse(MINIMAL.replace("name: s0", "name: s0\n    engine: myisam")))
                .hasMessage("shards[0].engine: unknown engine 'myisam' (expected one of: aria, innodb, rocksdb)");
    }

    @Test
    void defaults() {
        ShardgateConfig config = loader.parse(MINIMAL);
        assertThat(config.listen()).isEqualTo(new HostPort("127.0.0.1", 3307));
        assertThat(config.admin().listen()).isEqualTo(new HostPort("127.0.0.1", 8307));
        assertThat(config.serverVersion()).isEqualTo("10.11.19-MariaDB-shardgate");
        assertThat(config.shards().get(0).engine()).isEqualTo(Engine.INNODB);
        assertThat(config.shards().get(0).replicas()).isEmpty();
        assertThat(config.shards().get(0).durability()).isEqualTo(ShardConfig.Durability.ASYNC);
        assertThat(config.users().get(0).requireTls()).isFalse();
        assertThat(config.limits()).isEqualTo(LimitsConfig.DEFAULTS);
        assertThat(config.limits().maxAllowedPacket()).isEqualTo(64L * 1024 * 1024);
        assertThat(config.tls()).isEqualTo(TlsConfig.SELF_SIGNED);
        assertThat(config.allowLocalInfile()).isFalse();
    }

    @Test
    void mapsEveryKey() throws Exception {
        ShardgateConfig config = loader.parse("""
                listen: { host: 0.0.0.0, port: 4000 }
                admin:  { host: 127.0.0.2, port: 9000, token: long-enough-token }
                server_version: 8.0.36-shardgate
                users:
                  - { name: app, password: app, require_tls: true }
                  - { name: ro, password_hash: "*6BB4837EB74329105EE4568DDA7DC67ED2CA2AD9", auth_plugin: caching_sha2_password }
                backend_user: { name: shardgate, password: secret }
                shards:
                  - name: s1
                    engine: rocksdb
                    primary: 127.0.0.1:24001
                    replicas: [127.0.0.1:24002, "127.0.0.1:24003"]
                    durability: semi_sync
                limits:
                  max_client_connections: 10
                  max_backend_connections: 3
                  backend_acquire_timeout_ms: 250
                  backend_connect_timeout_ms: 300
                  handshake_timeout_ms: 400
                  idle_timeout_s: 60
                  max_allowed_packet: 2048
                  max_prepared_statements: 100
                  backend_statement_cache: 20
                allow_local_infile: true
                """);
        assertThat(config.limits()).isEqualTo(new LimitsConfig(10, 3, java.time.Duration.ofMillis(250),
                java.time.Duration.ofMillis(300), java.time.Duration.ofMillis(400), java.time.Duration.ofSeconds(60), 2048, 100, 20, 100_000, 1000));
        assertThat(config.allowLocalInfile()).isTrue();
        assertThat(config.listen()).isEqualTo(new HostPort("0.0.0.0", 4000));
        assertThat(config.admin().listen()).isEqualTo(new HostPort("127.0.0.2", 9000));
        assertThat(config.admin().token()).isEqualTo("long-enough-token");
        assertThat(config.serverVersion()).isEqualTo("8.0.36-shardgate");
        assertThat(config.backendUser().name()).isEqualTo("shardgate");
        ShardConfig shard = config.shards().get(0);
        assertThat(shard.engine()).isEqualTo(Engine.ROCKSDB);
        assertThat(shard.replicas()).containsExactly(new HostPort("127.0.0.1", 24002), new HostPort("127.0.0.1", 24003));
        assertThat(shard.durability()).isEqualTo(ShardConfig.Durability.SEMI_SYNC);
        UserConfig app = config.users().get(0);
        assertThat(app.requireTls()).isTrue();
        byte[] stage1 = MessageDigest.getInstance("SHA-1").digest("app".getBytes(StandardCharsets.UTF_8));
        assertThat(app.nativeStage2()).isEqualTo(MessageDigest.getInstance("SHA-1").digest(stage1));
        assertThat(app.sha256Stage2()).isPresent();
        UserConfig ro = config.users().get(1);
        // PASSWORD('123456') in MariaDB
        assertThat(ro.nativeStage2()).hasSize(20);
        assertThat(ro.sha256Stage2()).isEmpty();
        assertThat(ro.authPlugin()).isEqualTo("caching_sha2_password");
        assertThat(app.authPlugin()).isEqualTo("mysql_native_password");
    }

    private static final String TWO_SHARDS = """
            admin: { token: change-me }
            users:
              - { name: app, password: app }
            backend_user: { name: shardgate, password: secret }
            shards:
              - { name: s0, key_range: "-80", primary: 127.0.0.1:24001 }
              - { name: s1, key_range: "80-", engine: rocksdb, primary: 127.0.0.1:24002 }
            """;

    @Test
    void shardingSchemaFromSchemasAndKeyRanges() {
        ShardgateConfig config = new ConfigLoader().parse(TWO_SHARDS + """
                schemas:
                  - name: shop
                    tables:
                      customers: { shard_key: id, vindex: hash }
                      users:     { shard_key: email, vindex: hash, key_type: string, collation: utf8mb4_unicode_ci }
                      ledger:    { shard_key: account_id, vindex: range, ranges: [ { less_than: 1000, shard: s0 }, { shard: s1 } ] }
                      events:    { shard_key: region, vindex: list, key_type: string, lists: { s0: [eu, uk], s1: [us, ca] } }
                      countries: { type: reference }
                      settings:  { type: unsharded, shard: s0 }
                    sequences:
                      customers.id: { shard: s0 }
                """);
        io.shardgate.router.schema.ShardingSchema sharding = config.sharding().orElseThrow();
        assertThat(sharding.shardNames()).containsExactly("s0", "s1");
        assertThat(sharding.schema("shop").orElseThrow().tables()).hasSize(6);
        assertThat(sharding.schema("shop").orElseThrow().sequence("customers")).isPresent();
        // Without schemas and key ranges there is no sharding: one shard, or the demo's two, as before.
        assertThat(new ConfigLoader().parse(MINIMAL).sharding()).isEmpty();
    }

    @Test
    void rangeAndListValuesAreTypedWhereTheConfigIsRead() {
        ShardgateConfig config = new ConfigLoader().parse(TWO_SHARDS + """
                schemas:
                  - name: shop
                    tables:
                      big:    { shard_key: id, vindex: range, ranges: [ { less_than: 18446744073709551615, shard: s0 }, { shard: s1 } ] }
                      events: { shard_key: region, vindex: list, key_type: string, lists: { s0: [eu, 7], s1: [1.5] } }
                """);
        io.shardgate.router.schema.SchemaRules shop = config.sharding().orElseThrow().schema("shop").orElseThrow();
        RangeVindex range = (RangeVindex) ((ShardedTable) shop.table("big").orElseThrow()).vindex();
        assertThat(range.bounds().get(0).lessThan()).as("an integer beyond a long stays exact")
                .isEqualTo(SqlValue.ofInteger(new BigInteger("18446744073709551615")));
        assertThat(range.bounds().get(1).lessThan().isNull()).as("no less_than: MAXVALUE").isTrue();
        ListVindex list = (ListVindex) ((ShardedTable) shop.table("events").orElseThrow()).vindex();
        assertThat(list.valuesByShard().get("s0")).containsExactly(SqlValue.ofText("eu"), SqlValue.ofLong(7));
        assertThat(list.valuesByShard().get("s1").get(0).type()).isEqualTo(SqlValue.Type.DECIMAL);
    }

    @Test
    void shardingErrorsNameTheKey() {
        assertThatThrownBy(() -> new ConfigLoader().parse(TWO_SHARDS.replace("\"80-\"", "\"90-\"")))
                .hasMessageContaining("key_range").hasMessageContaining("gap");
        assertThatThrownBy(() -> new ConfigLoader().parse(TWO_SHARDS + """
                schemas:
                  - name: shop
                    tables:
                      customers: { shard_key: id, vindex: modulo }
                """)).hasMessage("schemas[0].tables.customers.vindex: 'modulo' is not one of [hash, range, list]");
        assertThatThrownBy(() -> new ConfigLoader().parse(TWO_SHARDS + """
                schemas:
                  - name: shop
                    tables:
                      settings: { type: unsharded, shard: s9 }
                """)).hasMessageContaining("s9");
    }

    @Test
    void routingSettingsAndTheirErrors() {
        ShardgateConfig config = new ConfigLoader().parse(MINIMAL + """
                routing: { max_replica_lag_ms: 250, fallback: error, causal_reads: token, causal_wait_ms: 100 }
                """);
        assertThat(config.routing().maxReplicaLagMs()).isEqualTo(250);
        assertThat(config.routing().fallback()).isEqualTo(RoutingConfig.Fallback.ERROR);
        assertThat(config.routing().causalReads()).isEqualTo(RoutingConfig.CausalReads.TOKEN);
        assertThat(new ConfigLoader().parse(MINIMAL).routing()).isEqualTo(RoutingConfig.DEFAULTS);
        assertThatThrownBy(() -> new ConfigLoader().parse(MINIMAL + "routing: { fallback: replica }\n"))
                .hasMessage("routing.fallback: 'replica' is not one of [primary, error]");
    }

    @Test
    void digestSettingsTheirDefaultsAndErrors() {
        assertThat(new ConfigLoader().parse(MINIMAL).digests()).isEqualTo(DigestsConfig.DEFAULTS);
        assertThat(DigestsConfig.DEFAULTS).isEqualTo(new DigestsConfig(true, 10_000, 20));
        ShardgateConfig config = new ConfigLoader().parse(MINIMAL + """
                digests: { enabled: false, max_entries: 500, metrics_top: 5 }
                """);
        assertThat(config.digests()).isEqualTo(new DigestsConfig(false, 500, 5));
        assertThatThrownBy(() -> new ConfigLoader().parse(MINIMAL + "digests: { max_entries: 0 }\n"))
                .hasMessageStartingWith("digests.max_entries: 0 is out of range");
        assertThatThrownBy(() -> new ConfigLoader().parse(MINIMAL + "digests: { top: 5 }\n"))
                .hasMessage("digests.top: unknown key (expected one of: enabled, max_entries, metrics_top)");
    }

    @Test
    void schemaTrackingItsDefaultAndErrors() {
        assertThat(new ConfigLoader().parse(MINIMAL).schemaTracking()).isEqualTo(SchemaTrackingConfig.DEFAULTS);
        assertThat(SchemaTrackingConfig.DEFAULTS).isEqualTo(new SchemaTrackingConfig(java.time.Duration.ofSeconds(60)));
        assertThat(new ConfigLoader().parse(MINIMAL + "schema_tracking: { check_interval_ms: 2500 }\n").schemaTracking())
                .isEqualTo(new SchemaTrackingConfig(java.time.Duration.ofMillis(2500)));
        assertThat(new ConfigLoader().parse(MINIMAL + "schema_tracking: { check_interval_ms: 0 }\n").schemaTracking().checkInterval())
                .as("0: no periodic check").isZero();
        assertThatThrownBy(() -> new ConfigLoader().parse(MINIMAL + "schema_tracking: { check_interval_ms: -1 }\n"))
                .hasMessageStartingWith("schema_tracking.check_interval_ms: -1 is out of range");
        assertThatThrownBy(() -> new ConfigLoader().parse(MINIMAL + "schema_tracking: { interval: 5 }\n"))
                .hasMessage("schema_tracking.interval: unknown key (expected one of: check_interval_ms)");
    }

    @Test
    void errorsNameTheKey() {
        assertThatThrownBy(() -> loader.parse(MINIMAL + "lsten: { port: 1 }\n"))
                .isInstanceOf(ConfigException.class)
                .hasMessage("lsten: unknown key (expected one of: admin, allow_local_infile, backend_states, backend_user, ddl, digests, health, "
                        + "limits, listen, routing, schema_tracking, schemas, server_version, shards, tls, topology, topology_history, "
                        + "topology_version, transactions, users, write_holds)");
        assertThatThrownBy(() -> loader.parse(MINIMAL.replace("127.0.0.1:24001", "localhost")))
                .hasMessage("shards[0].primary: expected HOST:PORT, got 'localhost'");
        assertThatThrownBy(() -> loader.parse(MINIMAL.replace("name: s0", "name: s0\n    engine: myisam")))
                .hasMessage("shards[0].engine: unknown engine 'myisam' (expected one of: innodb, rocksdb)");
        assertThatThrownBy(() -> loader.parse(MINIMAL.replace("name: s0", "name: s0\n    durability: sync")))
                .hasMessage("shards[0].durability: 'sync' is not one of [async, semi_sync]");
        assertThatThrownBy(() -> loader.parse(MINIMAL.replace("{ token: change-me }", "{ token: change-me, port: 70000 }")))
                .hasMessage("admin.port: 70000 is out of range (expected: 0..65535)");
        assertThatThrownBy(() -> loader.parse(MINIMAL.replace("{ name: app, password: app }", "{ name: app }")))
                .hasMessage("users[0]: give exactly one of password and password_hash");
        assertThatThrownBy(() -> loader.parse(MINIMAL.replace("admin: { token: change-me }\n", "")))
                .hasMessage("admin.token: is required");
        assertThatThrownBy(() -> loader.parse("listen: [1, 2]\n"))
                .hasMessage("listen: expected a mapping");
        assertThatThrownBy(() -> loader.parse(MINIMAL + "limits: { max_allowed_packet: 12 }\n"))
                .hasMessage("limits.max_allowed_packet: 12 is out of range (expected: 1024..1073741824)");
        assertThatThrownBy(() -> loader.parse(MINIMAL + "tls: { cert: /nonexistent.pem }\n"))
                .hasMessage("tls: give both cert and key, or neither for a self-signed pair");
        assertThatThrownBy(() -> loader.parse(MINIMAL.replace("password: app }", "password: app, auth_plugin: sha256_password }")))
                .hasMessage("users[0].auth_plugin: unknown plugin 'sha256_password' (expected one of: "
                        + "mysql_native_password, caching_sha2_password)");
        assertThatThrownBy(() -> loader.parse("a: [\n"))
                .hasMessageStartingWith("config: not valid YAML");
    }
}
