package io.shardgate.proxy.backend;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.shardgate.proxy.protocol.Capabilities;
import io.shardgate.proxy.protocol.Command;
import io.shardgate.proxy.protocol.MalformedPacketException;
import io.shardgate.proxy.protocol.ServerStatus;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Golden packet sequences for every response shape {@link ResponseTracker} knows, built by hand
 * from the protocol docs ("COM_QUERY Response", "Text Resultset", "Binary Protocol Resultset",
 * "COM_STMT_PREPARE Response", "COM_STMT_FETCH", "COM_FIELD_LIST", "COM_STATISTICS",
 * "LOCAL INFILE Request"), each with and without CLIENT_DEPRECATE_EOF where that changes the shape.
 */
class ResponseTrackerTest {
    private static final int AUTOCOMMIT = ServerStatus.AUTOCOMMIT;
    private static final int MORE = ServerStatus.MORE_RESULTS_EXISTS;

    // ---- payload builders --------------------------------------------------------------------

    private static final class Bytes {
        private final ByteArrayOutputStream out = new ByteArrayOutputStream();

        Bytes u8(int value) {
            out.write(value);
            return this;
        }

        Bytes u16(int value) {
            return u8(value & 0xFF).u8((value >>> 8) & 0xFF);
        }

        Bytes u32(long value) {
            return u16((int) (value & 0xFFFF)).u16((int) ((value >>> 16) & 0xFFFF));
        }

        Bytes lenenc(long value) {
            if (value < 251) {
                return u8((int) value);
            } else if (value < (1 << 16)) {
                return u8(0xFC).u16((int) value);
            } else if (value < (1 << 24)) {
                return u8(0xFD).u16((int) (value & 0xFFFF)).u8((int) (value >>> 16));
            }
            return u8(0xFE).u32(value & 0xFFFFFFFFL).u32(value >>> 32);
        }

        Bytes str(String value) {
            byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
            lenenc(bytes.length);
            out.writeBytes(bytes);
            return this;
        }

        Bytes raw(String value) {
            out.writeBytes(value.getBytes(StandardCharsets.UTF_8));
            return this;
        }

        byte[] get() {
            return out.toByteArray();
        }
    }

    /** OK_Packet with header 0x00: no affected rows, no insert id, no warnings. */
    private static byte[] ok(int status) {
        return new Bytes().u8(0x00).lenenc(0).lenenc(0).u16(status).u16(0).get();
    }

    /** OK_Packet with header 0xFE: the end of a result set with CLIENT_DEPRECATE_EOF. */
    private static byte[] okEof(int status) {
        return new Bytes().u8(0xFE).lenenc(0).lenenc(0).u16(status).u16(0).get();
    }

    /** EOF_Packet: 0xFE, warnings, status. */
    private static byte[] eof(int status) {
        return new Bytes().u8(0xFE).u16(0).u16(status).get();
    }

    /** The terminator of a result set in the given mode. */
    private static byte[] end(boolean deprecateEof, int status) {
        return deprecateEof ? okEof(status) : eof(status);
    }

    private static byte[] err() {
        return new Bytes().u8(0xFF).u16(1146).raw("#42S02Table 'shop.nope' doesn't exist").get();
    }

    private static byte[] columnCount(long count) {
        return new Bytes().lenenc(count).get();
    }

    /** Protocol::ColumnDefinition41 of an INT column. */
    private static byte[] column(String name) {
        return new Bytes().str("def").str("shop").str("t").str("t").str(name).str(name)
                .u8(0x0C).u16(63).u32(11).u8(0x03).u16(0).u8(0).u16(0).get();
    }

    /** A text-protocol row; null is SQL NULL (0xFB). */
    private static byte[] textRow(String... values) {
        Bytes row = new Bytes();
        for (String value : values) {
            if (value == null) {
                row.u8(0xFB);
            } else {
                row.str(value);
            }
        }
        return row.get();
    }

    /** A binary-protocol row of INT columns: 0x00, the NULL bitmap (offset 2), the values. */
    private static byte[] binaryRow(int... values) {
        Bytes row = new Bytes().u8(0x00);
        for (int i = 0; i < (values.length + 7 + 2) / 8; i++) {
            row.u8(0);
        }
        for (int value : values) {
            row.u32(value);
        }
        return row.get();
    }

    /** COM_STMT_PREPARE_OK: 0x00, statement id, columns, params, filler, warnings. */
    private static byte[] prepareOk(int columns, int params) {
        return new Bytes().u8(0x00).u32(7).u16(columns).u16(params).u8(0).u16(0).get();
    }

    /** A result set of {@code columns} INT columns and the given rows, without its terminator. */
    private static List<byte[]> resultSetHead(boolean deprecateEof, int columns, int eofStatus) {
        List<byte[]> packets = new ArrayList<>();
        packets.add(columnCount(columns));
        for (int i = 0; i < columns; i++) {
            packets.add(column("c" + i));
        }
        if (!deprecateEof) {
            packets.add(eof(eofStatus));
        }
        return packets;
    }

    private static List<byte[]> list(Object... parts) {
        List<byte[]> packets = new ArrayList<>();
        for (Object part : parts) {
            if (part instanceof byte[] packet) {
                packets.add(packet);
            } else if (part instanceof List<?> more) {
                for (Object packet : more) {
                    packets.add((byte[]) packet);
                }
            } else {
                throw new IllegalArgumentException(String.valueOf(part));
            }
        }
        return packets;
    }

    private static long caps(boolean deprecateEof) {
        long caps = Capabilities.CLIENT_PROTOCOL_41 | Capabilities.CLIENT_SESSION_TRACK;
        return deprecateEof ? caps | Capabilities.CLIENT_DEPRECATE_EOF : caps;
    }

    /**
     * Starts {@code command} and feeds the packets, checking that the tracker is done after the
     * last packet and not before, and that it never consumes a payload.
     */
    private static ResponseTracker follow(boolean deprecateEof, Command command, List<byte[]> packets) {
        ResponseTracker tracker = new ResponseTracker(caps(deprecateEof));
        tracker.start(command);
        assertThat(tracker.isDone()).as("done before any packet").isFalse();
        for (int i = 0; i < packets.size(); i++) {
            ByteBuf payload = Unpooled.wrappedBuffer(packets.get(i));
            boolean done = tracker.accept(payload);
            assertThat(payload.readerIndex()).as("packet %d consumed", i).isZero();
            assertThat(tracker.isDone()).isEqualTo(done);
            if (i < packets.size() - 1) {
                assertThat(done).as("done after packet %d of %d", i + 1, packets.size()).isFalse();
            } else {
                assertThat(done).as("done after the last packet (%d)", packets.size()).isTrue();
            }
        }
        return tracker;
    }

    // ---- OK, ERR, EOF ------------------------------------------------------------------------

    @ParameterizedTest(name = "deprecateEof={0}")
    @ValueSource(booleans = {false, true})
    void okEndsTheResponse(boolean deprecateEof) {
        ResponseTracker tracker = follow(deprecateEof, Command.QUERY, list(ok(AUTOCOMMIT | ServerStatus.IN_TRANS)));
        assertThat(tracker.lastStatus()).isEqualTo(AUTOCOMMIT | ServerStatus.IN_TRANS);
        assertThat(tracker.endedWithError()).isFalse();
        assertThat(tracker.wantsLocalInfile()).isFalse();
    }

    @Test
    void readsTheStatusAfterLengthEncodedCounts() {
        byte[] ok = new Bytes().u8(0x00).lenenc(70000).lenenc(1L << 32).u16(AUTOCOMMIT | ServerStatus.IN_TRANS).u16(1).get();
        ResponseTracker tracker = follow(false, Command.QUERY, list(ok));
        assertThat(tracker.lastStatus()).isEqualTo(AUTOCOMMIT | ServerStatus.IN_TRANS);
        assertThat(tracker.lastWasOk()).isTrue();
        assertThat(tracker.okInsertId()).isEqualTo(1L << 32);
        assertThat(tracker.okHasTrailer()).isFalse();
        byte[] withInfo = new Bytes().u8(0x00).lenenc(1).lenenc(0).u16(AUTOCOMMIT).u16(0).u8(2).u8('h').u8('i').get();
        tracker = follow(false, Command.QUERY, list(withInfo));
        assertThat(tracker.okInsertId()).isZero();
        assertThat(tracker.okHasTrailer()).isTrue();
    }

    @ParameterizedTest(name = "deprecateEof={0}")
    @ValueSource(booleans = {false, true})
    void errEndsTheResponseWithAnError(boolean deprecateEof) {
        ResponseTracker tracker = follow(deprecateEof, Command.QUERY, list(err()));
        assertThat(tracker.endedWithError()).isTrue();
    }

    @Test
    void eofWhereAnOkIsExpectedEndsTheResponse() {
        ResponseTracker tracker = follow(false, Command.SET_OPTION, list(eof(AUTOCOMMIT | ServerStatus.NO_BACKSLASH_ESCAPES)));
        assertThat(tracker.lastStatus()).isEqualTo(AUTOCOMMIT | ServerStatus.NO_BACKSLASH_ESCAPES);
        assertThat(tracker.endedWithError()).isFalse();
    }

    // ---- text result sets --------------------------------------------------------------------

    @ParameterizedTest(name = "deprecateEof={0}")
    @ValueSource(booleans = {false, true})
    void textResultSet(boolean deprecateEof) {
        ResponseTracker tracker = follow(deprecateEof, Command.QUERY, list(
                resultSetHead(deprecateEof, 2, AUTOCOMMIT),
                textRow("1", "one"), textRow("2", null), textRow(null, null),
                end(deprecateEof, AUTOCOMMIT | ServerStatus.NO_INDEX_USED)));
        assertThat(tracker.lastStatus()).isEqualTo(AUTOCOMMIT | ServerStatus.NO_INDEX_USED);
        assertThat(tracker.endedWithError()).isFalse();
    }

    @ParameterizedTest(name = "deprecateEof={0}")
    @ValueSource(booleans = {false, true})
    void emptyResultSet(boolean deprecateEof) {
        ResponseTracker tracker = follow(deprecateEof, Command.QUERY, list(
                resultSetHead(deprecateEof, 1, AUTOCOMMIT), end(deprecateEof, AUTOCOMMIT | ServerStatus.IN_TRANS)));
        assertThat(tracker.lastStatus()).isEqualTo(AUTOCOMMIT | ServerStatus.IN_TRANS);
    }

    @ParameterizedTest(name = "deprecateEof={0}")
    @ValueSource(booleans = {false, true})
    void resultSetWithMoreThan250Columns(boolean deprecateEof) {
        List<byte[]> packets = list(resultSetHead(deprecateEof, 300, AUTOCOMMIT), end(deprecateEof, AUTOCOMMIT));
        assertThat(packets.get(0)).as("0xFC-prefixed column count").startsWith(0xFC, 0x2C, 0x01);
        follow(deprecateEof, Command.QUERY, packets);
    }

    @ParameterizedTest(name = "deprecateEof={0}")
    @ValueSource(booleans = {false, true})
    void errInsteadOfARowEndsWithAnError(boolean deprecateEof) {
        ResponseTracker tracker = follow(deprecateEof, Command.QUERY, list(
                resultSetHead(deprecateEof, 2, AUTOCOMMIT), textRow("1", "one"), err()));
        assertThat(tracker.endedWithError()).isTrue();
    }

    @Test
    void errAmongTheColumnDefinitionsEndsWithAnError() {
        ResponseTracker tracker = follow(true, Command.QUERY, list(columnCount(3), column("a"), err()));
        assertThat(tracker.endedWithError()).isTrue();
    }

    /**
     * A text row whose first column is longer than 2^24 - 1 bytes starts with the 0xFE prefix of an
     * 8-byte length. It is at least 9 + 2^24 bytes long, so it is never the terminator (which is
     * shorter than 9 bytes, or shorter than 0xFFFFFF with CLIENT_DEPRECATE_EOF).
     */
    @ParameterizedTest(name = "deprecateEof={0}")
    @ValueSource(booleans = {false, true})
    void aLongRowStartingWith0xFeIsNotTheTerminator(boolean deprecateEof) {
        int length = 1 << 24;
        byte[] row = new byte[9 + length];
        row[0] = (byte) 0xFE;
        row[4] = 1; // 8-byte little-endian length 0x0000000001000000
        Arrays.fill(row, 9, row.length, (byte) 'x');
        ResponseTracker tracker = follow(deprecateEof, Command.QUERY, list(
                resultSetHead(deprecateEof, 1, AUTOCOMMIT), row, row, end(deprecateEof, AUTOCOMMIT)));
        assertThat(tracker.lastStatus()).isEqualTo(AUTOCOMMIT);
    }

    @Test
    void withoutDeprecateEofA0xFePacketOfNineBytesOrMoreIsARow() {
        // First column with an 8-byte length prefix: the EOF_Packet is only 5 bytes.
        byte[] row = new Bytes().u8(0xFE).u32(0).u32(0).get();
        assertThat(row).hasSize(9);
        follow(false, Command.QUERY, list(resultSetHead(false, 1, AUTOCOMMIT), row, row, eof(AUTOCOMMIT)));
    }

    @Test
    void withDeprecateEofALongOkWithInfoIsTheTerminator() {
        // With CLIENT_DEPRECATE_EOF the terminator is an OK_Packet; info and session state make it long.
        byte[] terminator = new Bytes().u8(0xFE).lenenc(0).lenenc(0).u16(AUTOCOMMIT | ServerStatus.SESSION_STATE_CHANGED)
                .u16(0).str("").str("\u0000\u0002\u0001\u0031").get();
        assertThat(terminator.length).isGreaterThanOrEqualTo(9);
        ResponseTracker tracker = follow(true, Command.QUERY, list(resultSetHead(true, 1, AUTOCOMMIT), textRow("1"), terminator));
        assertThat(tracker.lastStatus()).isEqualTo(AUTOCOMMIT | ServerStatus.SESSION_STATE_CHANGED);
    }

    // ---- multi-results -----------------------------------------------------------------------

    @ParameterizedTest(name = "deprecateEof={0}")
    @ValueSource(booleans = {false, true})
    void twoResultSetsThenOk(boolean deprecateEof) {
        ResponseTracker tracker = follow(deprecateEof, Command.QUERY, list(
                resultSetHead(deprecateEof, 1, AUTOCOMMIT), textRow("1"), end(deprecateEof, AUTOCOMMIT | MORE),
                resultSetHead(deprecateEof, 2, AUTOCOMMIT), textRow("a", "b"), textRow("c", "d"),
                end(deprecateEof, AUTOCOMMIT | MORE),
                ok(AUTOCOMMIT | ServerStatus.IN_TRANS)));
        assertThat(tracker.lastStatus()).isEqualTo(AUTOCOMMIT | ServerStatus.IN_TRANS);
        assertThat(tracker.endedWithError()).isFalse();
    }

    @ParameterizedTest(name = "deprecateEof={0}")
    @ValueSource(booleans = {false, true})
    void okWithMoreResultsThenAResultSetThenAnError(boolean deprecateEof) {
        ResponseTracker tracker = follow(deprecateEof, Command.QUERY, list(
                ok(AUTOCOMMIT | MORE),
                resultSetHead(deprecateEof, 1, AUTOCOMMIT), textRow("1"), end(deprecateEof, AUTOCOMMIT | MORE),
                err()));
        assertThat(tracker.endedWithError()).isTrue();
    }

    @ParameterizedTest(name = "deprecateEof={0}")
    @ValueSource(booleans = {false, true})
    void storedProcedureThroughTheBinaryProtocol(boolean deprecateEof) {
        // CALL p() with COM_STMT_EXECUTE: one binary result set, then the OK of the CALL itself.
        ResponseTracker tracker = follow(deprecateEof, Command.STMT_EXECUTE, list(
                resultSetHead(deprecateEof, 2, AUTOCOMMIT), binaryRow(1, 2),
                end(deprecateEof, AUTOCOMMIT | MORE),
                ok(AUTOCOMMIT)));
        assertThat(tracker.lastStatus()).isEqualTo(AUTOCOMMIT);
    }

    // ---- binary result sets and cursors ------------------------------------------------------

    @ParameterizedTest(name = "deprecateEof={0}")
    @ValueSource(booleans = {false, true})
    void binaryResultSet(boolean deprecateEof) {
        ResponseTracker tracker = follow(deprecateEof, Command.STMT_EXECUTE, list(
                resultSetHead(deprecateEof, 3, AUTOCOMMIT), binaryRow(1, 2, 3), binaryRow(4, 5, 6),
                end(deprecateEof, AUTOCOMMIT)));
        assertThat(tracker.lastStatus()).isEqualTo(AUTOCOMMIT);
    }

    @ParameterizedTest(name = "deprecateEof={0}")
    @ValueSource(booleans = {false, true})
    void executeOpeningACursorEndsAfterTheColumns(boolean deprecateEof) {
        // Only the column definitions and the terminator that carries SERVER_STATUS_CURSOR_EXISTS;
        // rows come through COM_STMT_FETCH.
        ResponseTracker tracker = follow(deprecateEof, Command.STMT_EXECUTE, list(
                columnCount(2), column("a"), column("b"),
                end(deprecateEof, AUTOCOMMIT | ServerStatus.CURSOR_EXISTS)));
        assertThat(tracker.lastStatus() & ServerStatus.CURSOR_EXISTS).isNotZero();
    }

    @ParameterizedTest(name = "deprecateEof={0}")
    @ValueSource(booleans = {false, true})
    void fetchReturnsRowsThenATerminator(boolean deprecateEof) {
        ResponseTracker tracker = follow(deprecateEof, Command.STMT_FETCH, list(
                binaryRow(1, 2), binaryRow(3, 4),
                end(deprecateEof, AUTOCOMMIT | ServerStatus.CURSOR_EXISTS)));
        assertThat(tracker.lastStatus()).isEqualTo(AUTOCOMMIT | ServerStatus.CURSOR_EXISTS);
    }

    @ParameterizedTest(name = "deprecateEof={0}")
    @ValueSource(booleans = {false, true})
    void lastFetchSaysTheLastRowWasSent(boolean deprecateEof) {
        ResponseTracker tracker = follow(deprecateEof, Command.STMT_FETCH, list(
                binaryRow(5, 6), end(deprecateEof, AUTOCOMMIT | ServerStatus.CURSOR_EXISTS | ServerStatus.LAST_ROW_SENT)));
        assertThat(tracker.lastStatus() & ServerStatus.LAST_ROW_SENT).isNotZero();
    }

    @ParameterizedTest(name = "deprecateEof={0}")
    @ValueSource(booleans = {false, true})
    void fetchIgnoresMoreResultsExists(boolean deprecateEof) {
        // A cursor over a statement of a multi-result keeps the flag; a fetch still ends at its terminator.
        follow(deprecateEof, Command.STMT_FETCH, list(binaryRow(1), end(deprecateEof, AUTOCOMMIT | MORE | ServerStatus.CURSOR_EXISTS)));
    }

    @Test
    void fetchThatFails() {
        ResponseTracker tracker = follow(true, Command.STMT_FETCH, list(err()));
        assertThat(tracker.endedWithError()).isTrue();
    }

    /**
     * Packets captured from MariaDB 10.11.19 for {@code SELECT 1 AS a, 2 AS b UNION SELECT 3, 4}:
     * COM_STMT_PREPARE, COM_STMT_EXECUTE with a read-only cursor, then COM_STMT_FETCH of 1 row and
     * of 10 rows. With CLIENT_DEPRECATE_EOF the cursor's column definitions still end with a
     * terminator: an OK_Packet with header 0xFE and SERVER_STATUS_CURSOR_EXISTS.
     */
    @ParameterizedTest(name = "deprecateEof={0}")
    @ValueSource(booleans = {false, true})
    void cursorCapturedFromMariaDb(boolean deprecateEof) {
        String columnA = "03646566000000016101610c3f0002000000030100000000";
        String columnB = "03646566000000016201620c3f0002000000030100000000";
        List<byte[]> prepare = deprecateEof
                ? hexList("000100000002000000000000", columnA, columnB)
                : hexList("000200000002000000000000", columnA, columnB, "fe00000200");
        List<byte[]> execute = hexList("02", columnA, columnB, deprecateEof ? "fe000062000000" : "fe00006200");
        List<byte[]> firstFetch = hexList("00000100000002000000", deprecateEof ? "fe000042000000" : "fe00004200");
        List<byte[]> lastFetch = hexList("00000300000004000000", deprecateEof ? "fe000082000000" : "fe00008200");

        follow(deprecateEof, Command.STMT_PREPARE, prepare);
        ResponseTracker tracker = follow(deprecateEof, Command.STMT_EXECUTE, execute);
        assertThat(tracker.lastStatus()).isEqualTo(AUTOCOMMIT | ServerStatus.NO_INDEX_USED | ServerStatus.CURSOR_EXISTS);
        tracker = follow(deprecateEof, Command.STMT_FETCH, firstFetch);
        assertThat(tracker.lastStatus()).isEqualTo(AUTOCOMMIT | ServerStatus.CURSOR_EXISTS);
        tracker = follow(deprecateEof, Command.STMT_FETCH, lastFetch);
        assertThat(tracker.lastStatus()).isEqualTo(AUTOCOMMIT | ServerStatus.LAST_ROW_SENT);
    }

    private static List<byte[]> hexList(String... packets) {
        return Arrays.stream(packets).map(HexFormat.of()::parseHex).toList();
    }

    // ---- COM_STMT_PREPARE --------------------------------------------------------------------

    private static List<byte[]> prepareResponse(boolean deprecateEof, int columns, int params) {
        List<byte[]> packets = new ArrayList<>();
        packets.add(prepareOk(columns, params));
        for (int i = 0; i < params; i++) {
            packets.add(column("?"));
        }
        if (params > 0 && !deprecateEof) {
            packets.add(eof(AUTOCOMMIT));
        }
        for (int i = 0; i < columns; i++) {
            packets.add(column("c" + i));
        }
        if (columns > 0 && !deprecateEof) {
            packets.add(eof(AUTOCOMMIT));
        }
        return packets;
    }

    @ParameterizedTest(name = "deprecateEof={0}")
    @ValueSource(booleans = {false, true})
    void prepareWithParamsAndColumns(boolean deprecateEof) {
        List<byte[]> packets = prepareResponse(deprecateEof, 3, 2);
        assertThat(packets).hasSize(deprecateEof ? 6 : 8);
        ResponseTracker tracker = follow(deprecateEof, Command.STMT_PREPARE, packets);
        assertThat(tracker.endedWithError()).isFalse();
    }

    @ParameterizedTest(name = "deprecateEof={0}")
    @ValueSource(booleans = {false, true})
    void prepareWithColumnsOnly(boolean deprecateEof) {
        follow(deprecateEof, Command.STMT_PREPARE, prepareResponse(deprecateEof, 2, 0));
    }

    @ParameterizedTest(name = "deprecateEof={0}")
    @ValueSource(booleans = {false, true})
    void prepareWithParamsOnly(boolean deprecateEof) {
        follow(deprecateEof, Command.STMT_PREPARE, prepareResponse(deprecateEof, 0, 3));
    }

    @ParameterizedTest(name = "deprecateEof={0}")
    @ValueSource(booleans = {false, true})
    void prepareWithNothing(boolean deprecateEof) {
        follow(deprecateEof, Command.STMT_PREPARE, list(prepareOk(0, 0)));
    }

    @Test
    void prepareAfterAnotherPrepareDoesNotReuseItsColumnCount() {
        ResponseTracker tracker = new ResponseTracker(caps(true));
        tracker.start(Command.STMT_PREPARE);
        for (byte[] packet : prepareResponse(true, 4, 1)) {
            tracker.accept(Unpooled.wrappedBuffer(packet));
        }
        assertThat(tracker.isDone()).isTrue();
        tracker.start(Command.STMT_PREPARE);
        assertThat(tracker.accept(Unpooled.wrappedBuffer(prepareOk(0, 2)))).isFalse();
        assertThat(tracker.accept(Unpooled.wrappedBuffer(column("?")))).isFalse();
        assertThat(tracker.accept(Unpooled.wrappedBuffer(column("?")))).as("no columns this time").isTrue();
    }

    @Test
    void prepareThatFails() {
        ResponseTracker tracker = follow(false, Command.STMT_PREPARE, list(err()));
        assertThat(tracker.endedWithError()).isTrue();
    }

    @Test
    void rejectsATruncatedPrepareOk() {
        ResponseTracker tracker = new ResponseTracker(caps(false));
        tracker.start(Command.STMT_PREPARE);
        assertThatThrownBy(() -> tracker.accept(Unpooled.wrappedBuffer(new byte[] {0, 1, 0, 0, 0, 2})))
                .isInstanceOf(MalformedPacketException.class)
                .hasMessage("COM_STMT_PREPARE OK: 6 bytes left (expected: >= 12)");
    }

    // ---- COM_FIELD_LIST, COM_STATISTICS, LOCAL INFILE ----------------------------------------

    @ParameterizedTest(name = "deprecateEof={0}")
    @ValueSource(booleans = {false, true})
    void fieldList(boolean deprecateEof) {
        ResponseTracker tracker = follow(deprecateEof, Command.FIELD_LIST, list(
                column("id"), column("name"), column("price"), end(deprecateEof, AUTOCOMMIT)));
        assertThat(tracker.lastStatus()).isEqualTo(AUTOCOMMIT);
    }

    @Test
    void fieldListOfAMissingTable() {
        ResponseTracker tracker = follow(false, Command.FIELD_LIST, list(err()));
        assertThat(tracker.endedWithError()).isTrue();
    }

    @Test
    void statisticsIsOneStringPacket() {
        byte[] text = new Bytes().raw("Uptime: 12  Threads: 1  Questions: 3  Slow queries: 0  Opens: 17").get();
        ResponseTracker tracker = follow(false, Command.STATISTICS, list(text));
        assertThat(tracker.endedWithError()).isFalse();
    }

    @ParameterizedTest(name = "deprecateEof={0}")
    @ValueSource(booleans = {false, true})
    void localInfileRequestThenOk(boolean deprecateEof) {
        byte[] request = new Bytes().u8(0xFB).raw("/tmp/data.csv").get();
        ResponseTracker tracker = new ResponseTracker(caps(deprecateEof));
        tracker.start(Command.QUERY);
        assertThat(tracker.accept(Unpooled.wrappedBuffer(request))).isFalse();
        assertThat(tracker.wantsLocalInfile()).isTrue();
        // The client's file and empty packet go to the server; then the server answers.
        assertThat(tracker.accept(Unpooled.wrappedBuffer(ok(AUTOCOMMIT)))).isTrue();
        assertThat(tracker.wantsLocalInfile()).as("only the request packet itself asks for the file").isFalse();
        assertThat(tracker.endedWithError()).isFalse();
    }

    @Test
    void localInfileRequestThenErr() {
        ResponseTracker tracker = follow(false, Command.QUERY, list(new Bytes().u8(0xFB).raw("x.csv").get(), err()));
        assertThat(tracker.wantsLocalInfile()).isFalse();
        assertThat(tracker.endedWithError()).isTrue();
    }

    // ---- misuse ------------------------------------------------------------------------------

    @ParameterizedTest(name = "deprecateEof={0}")
    @ValueSource(booleans = {false, true})
    void aPacketAfterTheResponseThrows(boolean deprecateEof) {
        ResponseTracker tracker = follow(deprecateEof, Command.QUERY, list(
                resultSetHead(deprecateEof, 1, AUTOCOMMIT), textRow("1"), end(deprecateEof, AUTOCOMMIT)));
        assertThatThrownBy(() -> tracker.accept(Unpooled.wrappedBuffer(ok(AUTOCOMMIT))))
                .isInstanceOf(MalformedPacketException.class)
                .hasMessage("backend sent a packet after its response was complete");
    }

    @Test
    void aPacketBeforeAnyCommandThrows() {
        ResponseTracker tracker = new ResponseTracker(caps(false));
        assertThat(tracker.isDone()).isTrue();
        assertThatThrownBy(() -> tracker.accept(Unpooled.wrappedBuffer(ok(AUTOCOMMIT))))
                .isInstanceOf(MalformedPacketException.class);
    }

    @Test
    void startForgetsThePreviousError() {
        ResponseTracker tracker = follow(false, Command.QUERY, list(err()));
        assertThat(tracker.endedWithError()).isTrue();
        tracker.start(Command.PING);
        assertThat(tracker.accept(Unpooled.wrappedBuffer(ok(AUTOCOMMIT)))).isTrue();
        assertThat(tracker.wantsLocalInfile()).as("only the request packet itself asks for the file").isFalse();
        assertThat(tracker.endedWithError()).isFalse();
    }

    @Test
    void rejectsAnEmptyFirstPacket() {
        ResponseTracker tracker = new ResponseTracker(caps(false));
        tracker.start(Command.QUERY);
        assertThatThrownBy(() -> tracker.accept(Unpooled.EMPTY_BUFFER))
                .isInstanceOf(MalformedPacketException.class)
                .hasMessage("length-encoded integer: 0 bytes left (expected: >= 1)");
    }
}
