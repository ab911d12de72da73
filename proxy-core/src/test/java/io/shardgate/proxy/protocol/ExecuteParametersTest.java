package io.shardgate.proxy.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.shardgate.router.value.SqlValue;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The packets were sent to MariaDB 10.11.19 by a raw-socket client as the COM_STMT_EXECUTE of
 * {@code select ?, ?, ...}; the expected values are the literals the server's general log showed
 * for them ({@code Execute} entries of mysql.general_log).
 */
class ExecuteParametersTest {
    private static final String HEAD = "17" + "01000000" + "00" + "01000000";

    private static ByteBuf packet(String hex) {
        return Unpooled.wrappedBuffer(HexFormat.of().parseHex((HEAD + hex).replace(" ", "")));
    }

    private static byte[] types(String hex) {
        return HexFormat.of().parseHex(hex.replace(" ", ""));
    }

    @Test
    void decodesEveryKindOfValue() {
        // general log: select -128,255,-32768,4294967295,18446744073709551615,-9223372036854775808,
        //   0.10000000149011612,0.1,-12.500,'héllo','\0\xFF',NULL,NULL,-2,'A','B','C',1.5
        String types = "0100 0180 0200 0380 0880 0800 0400 0500 f600 fd00 fc00 fd00 0600 0300 fe00 0f00 f700 0000";
        ByteBuf payload = packet("001800 01 " + types
                + " 80 ff 0080 ffffffff ffffffffffffffff 0000000000000080 cdcccc3d 9a9999999999b93f 072d31322e353030"
                + " 0668c3a96c6c6f 0200ff feffffff 0141 0142 0143 03312e35");

        ExecuteParameters decoded = ExecuteParameters.decode(payload, 18, null, Map.of(), ClientCharset.UTF8MB4);

        assertThat(java(decoded)).containsExactly(-128L, 255L, -32768L, 4294967295L, new BigInteger("18446744073709551615"),
                Long.MIN_VALUE, 0.10000000149011612, 0.1, new BigDecimal("-12.500"), "héllo", new byte[] {0, (byte) 0xFF}, null, null,
                -2L, "A", "B", "C", new BigDecimal("1.5"));
        assertThat(decoded.types()).isEqualTo(types(types));
        assertThat(payload.readerIndex()).isZero();
    }

    @Test
    void tagsEachValueByItsWireType() {
        // BIGINT UNSIGNED 2^64-1, VARCHAR 'hi', BLOB 00FF, DOUBLE 0.1, DECIMAL 1.5, and a NULL (bit 5 set).
        ByteBuf payload = packet("20 01 0880 fd00 fc00 0500 f600 0600"
                + " ffffffffffffffff 026869 0200ff 9a9999999999b93f 03312e35");

        ExecuteParameters decoded = ExecuteParameters.decode(payload, 6, null, Map.of(), ClientCharset.UTF8MB4);

        assertThat(decoded.values().stream().map(SqlValue::type).toList()).containsExactly(SqlValue.Type.BIG_INTEGER,
                SqlValue.Type.TEXT, SqlValue.Type.BYTES, SqlValue.Type.FLOAT, SqlValue.Type.DECIMAL, SqlValue.Type.NULL);
        assertThat(decoded.values().get(2).bytes()).containsExactly(0, 0xFF);
    }

    @Test
    void decodesTemporalValuesAsTheServerPrintsThem() {
        // general log: select TIMESTAMP'2024-01-02 03:04:05.000500', DATE'2024-01-02',
        //   TIMESTAMP'2024-01-02 00:00:00', TIME'-51:04:05.000006', TIME'00:00:00', DATE'0000-00-00'
        ByteBuf payload = packet("00 01 0c00 0a00 0c00 0b00 0b00 0a00"
                + " 0be8070102030405f4010000 04e8070102 04e8070102 0c01020000000304050600000000 00 00");

        ExecuteParameters decoded = ExecuteParameters.decode(payload, 6, null, Map.of(), ClientCharset.UTF8MB4);

        assertThat(java(decoded)).containsExactly("2024-01-02 03:04:05.000500", "2024-01-02", "2024-01-02 00:00:00",
                "-51:04:05.000006", "00:00:00", "0000-00-00");
    }

    @Test
    void takesLongDataFromTheMapEvenWhenTheNullBitIsSet() {
        // Parameter 0 (VARCHAR, NULL bit set) and 2 (BLOB) came by COM_STMT_SEND_LONG_DATA ('hé'; 00ff then 01),
        // general log: select 'hé',42,'\0\xFF\1'
        ByteBuf payload = packet("01 01 fd00 0300 fc00 2a000000");
        Map<Integer, byte[]> longData = Map.of(0, "hé".getBytes(StandardCharsets.UTF_8), 2, new byte[] {0, (byte) 0xFF, 1});

        ExecuteParameters decoded = ExecuteParameters.decode(payload, 3, null, longData, ClientCharset.UTF8MB4);

        assertThat(java(decoded)).containsExactly("hé", 42L, new byte[] {0, (byte) 0xFF, 1});
    }

    @Test
    void usesTheRememberedTypesWhenTheExecuteSendsNone() {
        byte[] remembered = types("0300 fd00");
        ByteBuf payload = packet("00 00 07000000 026869");

        ExecuteParameters decoded = ExecuteParameters.decode(payload, 2, remembered, Map.of(), ClientCharset.UTF8MB4);

        assertThat(java(decoded)).containsExactly(7L, "hi");
        assertThat(decoded.types()).isEqualTo(remembered);
        assertThatThrownBy(() -> ExecuteParameters.decode(packet("00 00 07000000 026869"), 2, null, Map.of(), ClientCharset.UTF8MB4))
                .isInstanceOf(MalformedPacketException.class)
                .hasMessage("COM_STMT_EXECUTE sends no parameter types (expected: types, as no earlier execute of the statement sent 2)");
    }

    @Test
    void decodesStringsInTheConnectionCharset() {
        ByteBuf payload = packet("00 01 fd00 01e9");

        assertThat(java(ExecuteParameters.decode(payload, 1, null, Map.of(), ClientCharset.LATIN1))).containsExactly("é");
    }

    @Test
    void decodesNothingForAStatementWithoutParameters() {
        ExecuteParameters decoded = ExecuteParameters.decode(packet(""), 0, null, Map.of(), ClientCharset.UTF8MB4);

        assertThat(java(decoded)).isEmpty();
        assertThat(decoded.types()).isEmpty();
    }

    @Test
    void hasValueEquality() {
        ExecuteParameters one = new ExecuteParameters(List.of(SqlValue.ofLong(1L), SqlValue.NULL), types("0300 0600"));
        ExecuteParameters same = new ExecuteParameters(List.of(SqlValue.ofLong(1L), SqlValue.NULL), types("0300 0600"));

        assertThat(one).isEqualTo(same).hasSameHashCodeAs(same);
        assertThat(one.toString()).isEqualTo("ExecuteParameters[values=[1, null], types=[3, 0, 6, 0]]");
    }

    @Test
    void rejectsTruncatedAndUnknownValues() {
        assertThatThrownBy(() -> ExecuteParameters.decode(packet("00 01 0800 0100"), 1, null, Map.of(), ClientCharset.UTF8MB4))
                .isInstanceOf(MalformedPacketException.class).hasMessage("parameter 0 of type 0x8: 2 bytes left (expected: >= 8)");
        assertThatThrownBy(() -> ExecuteParameters.decode(packet("00 01 fd00 05616263"), 1, null, Map.of(), ClientCharset.UTF8MB4))
                .isInstanceOf(MalformedPacketException.class).hasMessage("length-encoded string length: 5 (expected: <= 3 remaining bytes)");
        assertThatThrownBy(() -> ExecuteParameters.decode(packet("00 01 f000 00"), 1, null, Map.of(), ClientCharset.UTF8MB4))
                .isInstanceOf(MalformedPacketException.class).hasMessage("parameter 0 of type 0xf0 (expected: a field type)");
        assertThatThrownBy(() -> ExecuteParameters.decode(packet("00 01 f600 0378797a"), 1, null, Map.of(), ClientCharset.UTF8MB4))
                .isInstanceOf(MalformedPacketException.class).hasMessage("parameter 0 of type 0xf6: 'xyz' (expected: a decimal number)");
        assertThatThrownBy(() -> ExecuteParameters.decode(packet("00"), 1, null, Map.of(), ClientCharset.UTF8MB4))
                .isInstanceOf(MalformedPacketException.class)
                .hasMessage("COM_STMT_EXECUTE of 1 parameters: 11 bytes (expected: the NULL bitmap, new-params-bound flag and types)");
    }

    /** The decoded values as Java values (null for SQL NULL). */
    private static List<Object> java(ExecuteParameters decoded) {
        return decoded.values().stream().map(SqlValue::toJava).toList();
    }
}
