package io.shardgate.proxy.protocol;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.HexFormat;

import static org.assertj.core.api.Assertions.assertThat;

class SessionStateInfoTest {
    /** An OK MariaDB 10.11 sent for SET NAMES latin1 (captured on this machine), with the info "hi" added. */
    private static ByteBuf okWithState() {
        ByteBuf state = Unpooled.buffer();
        ByteBuf entry = Unpooled.buffer();
        Wire.writeLenencString(entry, "character_set_client");
        Wire.writeLenencString(entry, "latin1");
        state.writeByte(0);
        Wire.writeLenencInt(state, entry.readableBytes());
        state.writeBytes(entry);
        ByteBuf schema = Unpooled.buffer();
        Wire.writeLenencString(schema, "shop");
        state.writeByte(1);
        Wire.writeLenencInt(state, schema.readableBytes());
        state.writeBytes(schema);
        state.writeByte(2).writeByte(1).writeByte('1');
        ByteBuf ok = Unpooled.buffer().writeByte(0).writeByte(0).writeByte(0)
                .writeShortLE(ServerStatus.AUTOCOMMIT | ServerStatus.SESSION_STATE_CHANGED).writeShortLE(0);
        Wire.writeLenencString(ok, "hi");
        Wire.writeLenencInt(ok, state.readableBytes());
        ok.writeBytes(state);
        return ok;
    }

    @Test
    void readsVariablesSchemaAndTheStateChangeFlag() {
        SessionStateInfo info = SessionStateInfo.ofOk(okWithState());
        assertThat(info.variables()).containsExactly(new SessionStateInfo.Variable("character_set_client", "latin1"));
        assertThat(info.schema()).isEqualTo("shop");
        assertThat(info.stateChanged()).isTrue();
    }

    @Test
    void anOkWithoutStateHasNone() {
        ByteBuf ok = Unpooled.wrappedBuffer(HexFormat.of().parseHex("00000002000000"));
        assertThat(SessionStateInfo.ofOk(ok)).isSameAs(SessionStateInfo.NONE);
    }

    @Test
    void strippingKeepsTheLengthPrefixedInfoAndClearsTheFlag() {
        ByteBuf stripped = SessionStateInfo.withoutSessionState(okWithState(), ByteBufAllocator.DEFAULT);
        OkPacket ok = OkPacket.decode(stripped, Capabilities.CLIENT_SESSION_TRACK);
        assertThat(ok.status()).isEqualTo(ServerStatus.AUTOCOMMIT);
        assertThat(ok.info()).isEqualTo("hi");
        assertThat(ok.sessionState()).isEmpty();
        assertThat(stripped.toString(StandardCharsets.ISO_8859_1)).doesNotContain("latin1");
    }
}
