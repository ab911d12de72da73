package io.shardgate.router.planner;

import io.shardgate.router.value.SqlValue;
import io.shardgate.router.exec.Row;
import io.shardgate.router.exec.RowStream;
import io.shardgate.router.plan.Execution;
import io.shardgate.router.schema.SchemaRules;
import io.shardgate.router.schema.Sequence;
import io.shardgate.router.schema.Shard;
import io.shardgate.router.schema.ShardedTable;
import io.shardgate.router.schema.ShardingSchema;
import io.shardgate.router.shard.KeyRange;
import io.shardgate.router.vindex.HashVindex;
import io.shardgate.router.vindex.KeyType;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** A VARBINARY shard key routes by its bytes, however the statement gives them. */
class BinaryKeyRoutingTest {

    private static final HashVindex BINARY_HASH = new HashVindex(KeyType.BINARY);
    private final ShardingSchema schema = new ShardingSchema(
            List.of(new Shard("s0", KeyRange.parse("-80")), new Shard("s1", KeyRange.parse("80-"))),
            List.of(new SchemaRules("shop", List.of(new ShardedTable("blobs", "k", BINARY_HASH)), List.of())));
    private final Planner planner = new Planner(schema);
    private final FakeShards shards = new FakeShards();

    private void run(String sql, Object... parameters) {
        RowStream stream = planner.plan(sql, "shop").open(
                new Execution(shards, Arrays.stream(parameters).map(SqlValue::of).toList(), (Sequence s) -> 1L, 1000));
        for (Row row = stream.next(); row != null; row = stream.next()) {
            // drain
        }
        stream.close();
    }

    private String shardOfBytes(byte[] bytes) {
        return BINARY_HASH.shardOf(KeyType.BINARY.store(SqlValue.ofBytes(bytes)).orElseThrow(), schema.ranges()).orElseThrow();
    }

    @Test
    void bytesThatAreNotUtf8RouteByThemselvesAsLiteralParameterOrUtf8Text() {
        byte[] key = {(byte) 0xFF, 0x00, (byte) 0xE9};
        String shard = shardOfBytes(key);

        run("INSERT INTO blobs (k, v) VALUES (X'FF00E9', 1)");
        run("INSERT INTO blobs (k, v) VALUES (?, 2)", (Object) key);
        // The same bytes in a utf8mb4 statement: ClientCharset reads the malformed bytes FF and E9 as U+DCFF, U+DCE9.
        run("INSERT INTO blobs (k, v) VALUES (?, 3)", "\uDCFF\u0000\uDCE9");
        run("SELECT v FROM blobs WHERE k = X'FF00E9'");

        assertThat(shards.log()).hasSize(4).allSatisfy(line -> assertThat(line).startsWith(shard + ": "));
    }

    @Test
    void everyTwoByteKeyRoutesByTheHashOfItsBytes() {
        java.util.Set<String> used = new java.util.HashSet<>();
        for (int i = 0; i < 256; i++) {
            byte[] key = {(byte) i, (byte) (255 - i)};
            String expected = shardOfBytes(key);
            used.add(expected);
            run("INSERT INTO blobs (k, v) VALUES (?, 0)", (Object) key);
            List<String> log = shards.log();
            assertThat(log.get(log.size() - 1)).as("key %02x%02x", i, 255 - i).startsWith(expected + ": ");
        }
        assertThat(used).containsExactlyInAnyOrder("s0", "s1");
    }
}
