package io.shardgate.proxy.frontend;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.shardgate.errors.ErrorCode;
import io.shardgate.errors.ShardgateException;
import io.shardgate.proxy.protocol.Command;
import io.shardgate.proxy.session.ClientStatement;
import io.shardgate.router.classify.StatementClassifier;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

class StatementPacketCheckTest {
    private static final int LONGLONG = 0x08;
    private static final int VAR_STRING = 0xFD;
    private static final int DATETIME = 0x0C;

    private static ClientStatement statement(int parameters) {
        return new ClientStatement(1, "SELECT ?", "", parameters, new StatementClassifier().classify("SELECT 1"));
    }

    /** COM_STMT_EXECUTE of statement 1: head, then {@code rest} (NULL bitmap onwards). */
    private static ByteBuf execute(int... rest) {
        ByteBuf out = Unpooled.buffer().writeByte(0x17).writeIntLE(1).writeByte(0).writeIntLE(1);
        for (int b : rest) {
            out.writeByte(b);
        }
        return out;
    }

    private static ShardgateException check(ByteBuf payload, ClientStatement statement) {
        return StatementPacketCheck.check(payload, Command.STMT_EXECUTE, statement, false);
    }

    @Test
    void wellFormedExecutesPass() {
        assertThat(check(execute(), statement(0))).isNull();
        assertThat(check(execute(0xAA, 0xBB), statement(0))).as("the server ignores bytes after a parameterless head").isNull();
        ByteBuf two = execute(0, 1, LONGLONG, 0, VAR_STRING, 0).writeLongLE(42).writeByte(3)
                .writeBytes("abc".getBytes(StandardCharsets.US_ASCII));
        assertThat(check(two, statement(2))).isNull();
        assertThat(check(execute(0b10, 1, LONGLONG, 0, VAR_STRING, 0).writeLongLE(7), statement(2)))
                .as("a NULL parameter has no value").isNull();
        assertThat(check(execute(0, 1, DATETIME, 0, 4, 0xE8, 0x07, 1, 2), statement(1))).isNull();
        ByteBuf big = execute(0, 1, VAR_STRING, 0).writeByte(0xFC).writeShortLE(300).writeZero(300);
        assertThat(check(big, statement(1))).isNull();
    }

    @Test
    void typesLeftOutNeedTypesFromAnEarlierExecute() {
        ClientStatement statement = statement(1);
        assertThat(check(execute(0, 0).writeLongLE(1), statement).code()).isEqualTo(ErrorCode.WRONG_ARGUMENTS);
        statement.parameterTypes(new byte[] {LONGLONG, 0});
        assertThat(check(execute(0, 0).writeLongLE(1), statement)).isNull();
    }

    @Test
    void parameterBlocksThatDoNotFitGetIncorrectArguments() {
        ClientStatement one = statement(1);
        assertThat(check(execute(), one).code()).as("no NULL bitmap").isEqualTo(ErrorCode.WRONG_ARGUMENTS);
        assertThat(check(execute(0), one).code()).as("no new-params-bound flag").isEqualTo(ErrorCode.WRONG_ARGUMENTS);
        assertThat(check(execute(0, 2, LONGLONG, 0), one).code()).as("flag 2").isEqualTo(ErrorCode.WRONG_ARGUMENTS);
        assertThat(check(execute(0, 1, LONGLONG), one).code()).as("types cut short").isEqualTo(ErrorCode.WRONG_ARGUMENTS);
        assertThat(check(execute(0, 1, 0x55, 0, 1), one).code()).as("unknown type").isEqualTo(ErrorCode.WRONG_ARGUMENTS);
        assertThat(check(execute(0, 1, LONGLONG, 0, 1, 2, 3), one).code()).as("value cut short").isEqualTo(ErrorCode.WRONG_ARGUMENTS);
        assertThat(check(execute(0, 1, VAR_STRING, 0, 10, 'a'), one).code()).as("string cut short")
                .isEqualTo(ErrorCode.WRONG_ARGUMENTS);
        ByteBuf overlong = execute(0, 1, VAR_STRING, 0).writeByte(0xFE).writeLongLE(-1L).writeByte('x');
        assertThat(check(overlong, one).code()).as("an 8-byte length past the packet").isEqualTo(ErrorCode.WRONG_ARGUMENTS);
        assertThat(check(execute(0, 1, VAR_STRING, 0, 0xFB), one).code()).as("0xFB is no length").isEqualTo(ErrorCode.WRONG_ARGUMENTS);
        assertThat(check(execute(0, 1, DATETIME, 0, 7, 1), one).code()).as("temporal cut short").isEqualTo(ErrorCode.WRONG_ARGUMENTS);
    }

    @Test
    void withLongDataPendingOnlyTheTypesAreJudged() {
        ClientStatement one = statement(1);
        assertThat(StatementPacketCheck.check(execute(0, 1, VAR_STRING, 0), Command.STMT_EXECUTE, one, true)).isNull();
        assertThat(StatementPacketCheck.check(execute(0, 1, 0x55, 0), Command.STMT_EXECUTE, one, true).code())
                .isEqualTo(ErrorCode.WRONG_ARGUMENTS);
    }

    @Test
    void headsCutShortAreMalformed() {
        assertThat(StatementPacketCheck.statementId(Unpooled.wrappedBuffer(new byte[] {0x17, 1, 0}), Command.STMT_EXECUTE).code())
                .isEqualTo(ErrorCode.MALFORMED_PACKET);
        assertThat(StatementPacketCheck.statementId(Unpooled.wrappedBuffer(new byte[] {0x17, 1, 0, 0, 0}), Command.STMT_EXECUTE))
                .isNull();
        assertThat(check(Unpooled.buffer().writeByte(0x17).writeIntLE(1).writeByte(0), statement(0)).code())
                .isEqualTo(ErrorCode.MALFORMED_PACKET);
        ByteBuf fetch = Unpooled.buffer().writeByte(0x1C).writeIntLE(1).writeShortLE(5);
        assertThat(StatementPacketCheck.check(fetch, Command.STMT_FETCH, statement(0), false).code())
                .isEqualTo(ErrorCode.MALFORMED_PACKET);
        assertThat(StatementPacketCheck.check(fetch.writeShortLE(0), Command.STMT_FETCH, statement(0), false)).isNull();
        ByteBuf bulk = Unpooled.buffer().writeByte(0xFA).writeIntLE(1);
        assertThat(StatementPacketCheck.check(bulk, Command.STMT_BULK_EXECUTE, statement(0), false).code())
                .isEqualTo(ErrorCode.MALFORMED_PACKET);
    }
}
