package io.shardgate.proxy.sharding;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.shardgate.proxy.protocol.ColumnDefinition;
import io.shardgate.router.exec.Role;
import io.shardgate.router.plan.Plan;
import io.shardgate.router.plan.Route;
import io.shardgate.router.plan.RouteVariant;
import io.shardgate.router.plan.ShardSelection;
import io.shardgate.router.plan.ShardSql;
import io.shardgate.router.plan.StaticRows;
import io.shardgate.router.plan.ValueSource;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class ShardedPrepareTest {
    private static final UnpooledByteBufAllocator ALLOC = UnpooledByteBufAllocator.DEFAULT;

    @Test
    void aRouteIsDescribedByItsOwnShardWithItsShardSql() {
        // An unsharded table of s1, PARTITION (s1) already gone from the shard SQL: s0 has no such table.
        Route route = new Route(RouteVariant.ONE, "shop.audit_log", new ShardSelection.Fixed(List.of("s1")),
                new ShardSql("SELECT at FROM audit_log WHERE id = ?", List.of(new ValueSource.Parameter(0))), Role.REPLICA);
        ShardedPrepare.Source source = ShardedPrepare.source(
                new Plan("SELECT at FROM audit_log PARTITION (s1) WHERE id = ?", route, 1), null);
        assertThat(source.shard()).isEqualTo("s1");
        assertThat(source.sql()).isEqualTo("SELECT at FROM audit_log WHERE id = ?");
        assertThat(source.parameters()).isEqualTo(1);
    }

    @Test
    void explainShardgateNeedsNoShardAndDescribesItsOneColumn() {
        ShardedPrepare.Source source = ShardedPrepare.source(new Plan("EXPLAIN SHARDGATE SELECT 1 FROM t WHERE id = ? AND k = ?",
                new StaticRows("plan", List.of("Route ...")), 2), null);
        assertThat(source.shard()).isNull();
        assertThat(source.parameters()).isEqualTo(2);
        assertThat(source.localColumns()).hasSize(1);
        ColumnDefinition plan = ColumnDefinition.parse(io.netty.buffer.Unpooled.wrappedBuffer(source.localColumns().get(0)));
        assertThat(plan.name()).isEqualTo("plan");
        assertThat(plan.type()).isEqualTo(ColumnDefinition.TYPE_VAR_STRING);
    }

    @Test
    void theClientSeesItsOwnParameterCountUnderItsOwnStatementId() {
        byte[] column = bytes(ColumnDefinition.computed("id", ColumnDefinition.TYPE_LONGLONG, 63, 20, 0, 0).encode(ALLOC));
        ShardedPrepare.Metadata metadata = new ShardedPrepare.Metadata(2, List.of(column), 0);

        List<ByteBuf> withEof = metadata.payloads(7, false, 2, ALLOC);
        // OK, 2 parameter definitions, EOF, 1 column definition, EOF.
        assertThat(withEof).hasSize(6);
        ByteBuf ok = withEof.get(0);
        assertThat(ok.readableBytes()).isEqualTo(12);
        assertThat(ok.getByte(0)).isEqualTo((byte) 0x00);
        assertThat(ok.getIntLE(1)).as("statement id").isEqualTo(7);
        assertThat(ok.getUnsignedShortLE(5)).as("columns").isEqualTo(1);
        assertThat(ok.getUnsignedShortLE(7)).as("parameters").isEqualTo(2);
        assertThat(ColumnDefinition.parse(withEof.get(1)).name()).isEqualTo("?");
        assertThat(withEof.get(3).getUnsignedByte(0)).as("EOF after the parameters").isEqualTo((short) 0xFE);
        assertThat(bytes(withEof.get(4))).isEqualTo(column);
        assertThat(withEof.get(5).getUnsignedByte(0)).as("EOF after the columns").isEqualTo((short) 0xFE);

        assertThat(metadata.payloads(7, true, 2, ALLOC)).as("CLIENT_DEPRECATE_EOF: no EOF packets").hasSize(4);
        assertThat(new ShardedPrepare.Metadata(0, List.of(), 0).payloads(9, false, 2, ALLOC)).as("a write without parameters: the OK only")
                .hasSize(1);
    }

    private static byte[] bytes(ByteBuf buf) {
        byte[] out = new byte[buf.readableBytes()];
        buf.getBytes(buf.readerIndex(), out);
        return out;
    }
}
