package io.shardgate.proxy.frontend;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.shardgate.proxy.protocol.MySqlPacket;
import io.shardgate.proxy.protocol.ServerStatus;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class MultiStatementsTest {
    @Test
    void splitsAtSemicolonsTheLexerSees() {
        assertThat(MultiStatements.split("SELECT 1; SELECT 2", false)).contains(List.of("SELECT 1", "SELECT 2"));
        assertThat(MultiStatements.split("SELECT ';' ; SELECT `a;b` FROM t /* ; */;\n", false))
                .contains(List.of("SELECT ';'", "SELECT `a;b` FROM t /* ; */"));
        assertThat(MultiStatements.split("BEGIN; INSERT INTO t VALUES (1); COMMIT", false))
                .contains(List.of("BEGIN", "INSERT INTO t VALUES (1)", "COMMIT"));
        assertThat(MultiStatements.split("/*!40101 SET NAMES utf8mb4 */; SELECT 1; /* nothing */", false))
                .contains(List.of("/*!40101 SET NAMES utf8mb4 */", "SELECT 1"));
    }

    @Test
    void oneStatementOrACompoundIsNotSplit() {
        assertThat(MultiStatements.split("SELECT 1;", false)).isEmpty();
        assertThat(MultiStatements.split("BEGIN NOT ATOMIC SELECT 1; SELECT 2; END", false)).isEmpty();
        assertThat(MultiStatements.split("CREATE PROCEDURE p() BEGIN SELECT 1; END; CALL p()", false)).isEmpty();
    }

    private static MySqlPacket packet(int sequence, int... bytes) {
        ByteBuf payload = Unpooled.buffer();
        for (int b : bytes) {
            payload.writeByte(b);
        }
        return new MySqlPacket(sequence, payload);
    }

    private static List<int[]> written(EmbeddedChannel channel) {
        List<int[]> out = new ArrayList<>();
        for (MySqlPacket packet = channel.readOutbound(); packet != null; packet = channel.readOutbound()) {
            ByteBuf payload = packet.payload();
            int[] bytes = new int[payload.readableBytes() + 1];
            bytes[0] = packet.sequenceId();
            for (int i = 0; i < payload.readableBytes(); i++) {
                bytes[i + 1] = payload.getUnsignedByte(payload.readerIndex() + i);
            }
            out.add(bytes);
            packet.release();
        }
        return out;
    }

    @Test
    void eachStatementsAnswerIsOneResultOfAMultiResultResponse() {
        List<MySqlPacket> statements = List.of(packet(0, 3), packet(0, 3), packet(0, 3));
        MultiResultWriter writer = new MultiResultWriter(statements, true);
        EmbeddedChannel channel = new EmbeddedChannel(writer);
        // 1: an OK.
        channel.writeOutbound(packet(1, 0x00, 1, 0, ServerStatus.AUTOCOMMIT, 0, 0, 0));
        // 2: one column, one row, the final OK (0xFE with deprecate EOF).
        channel.writeOutbound(packet(1, 1), packet(2, 3, 'd', 'e', 'f'), packet(3, 1, '7'), packet(4, 0xFE, 0, 0, ServerStatus.AUTOCOMMIT, 0, 0, 0));
        assertThat(channel.pipeline().context(writer)).as("still in the pipeline for the third").isNotNull();
        // 3: the last OK keeps its flags.
        channel.writeOutbound(packet(1, 0x00, 0, 0, ServerStatus.AUTOCOMMIT, 0, 0, 0));
        assertThat(channel.pipeline().context(writer)).as("gone after the last statement").isNull();
        List<int[]> out = written(channel);
        assertThat(out).extracting(p -> p[0]).containsExactly(1, 2, 3, 4, 5, 6);
        assertThat(out.get(0)[4] & ServerStatus.MORE_RESULTS_EXISTS).as("first OK").isNotZero();
        assertThat(out.get(4)[4] & ServerStatus.MORE_RESULTS_EXISTS).as("second result's final OK").isNotZero();
        assertThat(out.get(5)[4] & ServerStatus.MORE_RESULTS_EXISTS).as("last OK").isZero();
        assertThat(out.get(5)[4] & ServerStatus.AUTOCOMMIT).isNotZero();
        for (MySqlPacket statement : statements) {
            assertThat(writer.take(statement)).isTrue();
            statement.release();
        }
        assertThat(writer.failed()).isFalse();
        assertThat(writer.done()).isTrue();
        assertThat(channel.finish()).isFalse();
    }

    @Test
    void anErrorEndsTheBatchAndTheWriterLeaves() {
        List<MySqlPacket> statements = List.of(packet(0, 3), packet(0, 3));
        MultiResultWriter writer = new MultiResultWriter(statements, false);
        EmbeddedChannel channel = new EmbeddedChannel();
        channel.pipeline().addFirst(MultiResultWriter.NAME, writer);
        // Without deprecate EOF: count, definition, EOF, row, EOF (status at bytes 3..4).
        channel.writeOutbound(packet(1, 1), packet(2, 3, 'd', 'e', 'f'), packet(3, 0xFE, 0, 0, 2, 0), packet(4, 1, '1'),
                packet(5, 0xFE, 0, 0, 2, 0));
        channel.writeOutbound(packet(1, 0xFF, 0x28, 0x04, '#', '4', '2', '0', '0', '0', 'x'));
        assertThat(writer.failed()).isTrue();
        assertThat(channel.pipeline().get(MultiResultWriter.NAME)).as("gone after the ERR").isNull();
        channel.writeOutbound(packet(1, 0x00, 0, 0, 2, 0, 0, 0));
        List<int[]> out = written(channel);
        assertThat(out).extracting(p -> p[0]).containsExactly(1, 2, 3, 4, 5, 6, 1);
        assertThat(out.get(2)[4] & ServerStatus.MORE_RESULTS_EXISTS).as("the definitions' EOF").isZero();
        assertThat(out.get(4)[4] & ServerStatus.MORE_RESULTS_EXISTS).as("the first result's final EOF").isNotZero();
        statements.forEach(MySqlPacket::release);
        assertThat(channel.finish()).isFalse();
    }

    @Test
    void encodedFramesAreRenumberedAndFlaggedInPlace() {
        List<MySqlPacket> statements = List.of(packet(0, 3), packet(0, 3));
        MultiResultWriter writer = new MultiResultWriter(statements, true);
        EmbeddedChannel channel = new EmbeddedChannel(writer);
        // Two OKs gathered in one buffer as the relay writes them, then the last.
        ByteBuf gathered = Unpooled.buffer();
        gathered.writeMediumLE(7).writeByte(1).writeBytes(new byte[] {0, 0, 0, 2, 0, 0, 0});
        channel.writeOutbound(gathered);
        ByteBuf last = Unpooled.buffer();
        last.writeMediumLE(7).writeByte(1).writeBytes(new byte[] {0, 0, 0, 2, 0, 0, 0});
        channel.writeOutbound(last);
        ByteBuf first = channel.readOutbound();
        assertThat(first.getByte(3)).isEqualTo((byte) 1);
        assertThat(first.getUnsignedShortLE(7) & ServerStatus.MORE_RESULTS_EXISTS).isNotZero();
        ByteBuf second = channel.readOutbound();
        assertThat(second.getByte(3)).as("numbered on").isEqualTo((byte) 2);
        assertThat(second.getUnsignedShortLE(7) & ServerStatus.MORE_RESULTS_EXISTS).isZero();
        first.release();
        second.release();
        statements.forEach(MySqlPacket::release);
        assertThat(channel.finish()).isFalse();
    }
}
