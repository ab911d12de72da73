package io.shardgate.proxy.frontend;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.shardgate.proxy.backend.BackendStatement;
import io.shardgate.proxy.protocol.Command;
import io.shardgate.proxy.protocol.MySqlPacket;
import io.shardgate.proxy.protocol.StatementPackets;
import io.shardgate.proxy.session.ClientStatement;

import java.util.Arrays;

/**
 * Turns a client's prepared-statement command into the one its backend statement needs: the
 * backend's statement id instead of Shardgate's, and for COM_STMT_EXECUTE the parameter types
 * when the client leaves them out but the backend statement last saw other types (or none: it
 * was prepared lazily, or another session bound it).
 */
final class StatementRewriter {
    private StatementRewriter() {
    }

    /** Rewrites {@code packet} (owned by this method) for {@code backend}. */
    static MySqlPacket forBackend(MySqlPacket packet, ClientStatement statement, BackendStatement backend, ByteBufAllocator alloc) {
        ByteBuf payload = packet.payload();
        StatementPackets.statementId(payload, backend.id());
        if (Command.of(packet.header()) != Command.STMT_EXECUTE) {
            return packet;
        }
        int parameters = statement.parameters();
        byte[] sent = StatementPackets.sentTypes(payload, parameters);
        if (sent != null) {
            statement.parameterTypes(sent);
            backend.boundTypes(sent);
            return packet;
        }
        byte[] known = statement.parameterTypes();
        if (known == null || Arrays.equals(known, backend.boundTypes()) || !StatementPackets.omitsTypes(payload, parameters)) {
            return packet;
        }
        backend.boundTypes(known);
        return new MySqlPacket(packet.sequenceId(), StatementPackets.withTypes(payload, parameters, known, alloc));
    }
}
