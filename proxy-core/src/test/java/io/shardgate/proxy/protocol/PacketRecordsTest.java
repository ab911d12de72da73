package io.shardgate.proxy.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Packet records and {@link Wire}: known byte vectors, encode/decode round trips, malformed input. */
class PacketRecordsTest {
    private static final ByteBufAllocator ALLOC = ByteBufAllocator.DEFAULT;

    private static byte[] hex(String hex) {
        return HexFormat.of().parseHex(hex.replaceAll("\\s", ""));
    }

    private static byte[] ascii(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] part : parts) {
            out.writeBytes(part);
        }
        return out.toByteArray();
    }

    /** The bytes of an encoded buffer, which is then released. */
    private static byte[] bytesOf(ByteBuf buf) {
        try {
            return ByteBufUtil.getBytes(buf);
        } finally {
            buf.release();
        }
    }

    private static <T> T decode(byte[] bytes, Function<ByteBuf, T> decoder) {
        return decoder.apply(Unpooled.wrappedBuffer(bytes));
    }

    /** Runs the decoder and checks that it did not move the reader index of the payload. */
    private static <T> T decodeInPlace(byte[] bytes, Function<ByteBuf, T> decoder) {
        ByteBuf payload = Unpooled.wrappedBuffer(bytes);
        T result = decoder.apply(payload);
        assertThat(payload.readerIndex()).as("decode must not consume the payload").isZero();
        return result;
    }

    @Nested
    class ErrPackets {
        private static final byte[] ACCESS_DENIED = concat(hex("ff 1504 23"), ascii("28000"),
                ascii("Access denied for user 'bob'@'localhost' (using password: YES)"));

        @Test
        void encodesHeaderErrnoHashSqlStateAndMessage() {
            ErrPacket packet = new ErrPacket(1045, "28000", "Access denied for user 'bob'@'localhost' (using password: YES)");
            assertThat(bytesOf(packet.encode(ALLOC))).isEqualTo(ACCESS_DENIED);
        }

        @Test
        void decodesTheKnownBytes() {
            assertThat(decodeInPlace(ACCESS_DENIED, ErrPacket::decode)).isEqualTo(
                    new ErrPacket(1045, "28000", "Access denied for user 'bob'@'localhost' (using password: YES)"));
        }

        @Test
        void roundTripsUtf8Messages() {
            ErrPacket packet = new ErrPacket(1062, "23000", "Duplicate entry 'Grüße ✓' for key 'PRIMARY'");
            assertThat(decode(bytesOf(packet.encode(ALLOC)), ErrPacket::decode)).isEqualTo(packet);
        }

        @Test
        void defaultsTheSqlStateWithoutTheHashMarker() {
            assertThat(decode(concat(hex("ff 2804"), ascii("No database selected")), ErrPacket::decode))
                    .isEqualTo(new ErrPacket(1064, "HY000", "No database selected"));
        }

        @Test
        void keepsAShortMessageStartingWithHashAsText() {
            // '#' followed by fewer than 5 characters is not a SQLSTATE marker.
            assertThat(decode(concat(hex("ff 0100"), ascii("#abc")), ErrPacket::decode))
                    .isEqualTo(new ErrPacket(1, "HY000", "#abc"));
        }

        @Test
        void rejectsAnotherHeader() {
            assertThatThrownBy(() -> decode(hex("00 0000"), ErrPacket::decode))
                    .isInstanceOf(MalformedPacketException.class)
                    .hasMessage("ERR packet header: 0x0 (expected: 0xff)");
        }

        @Test
        void rejectsATruncatedPacket() {
            assertThatThrownBy(() -> decode(hex("ff 15"), ErrPacket::decode))
                    .isInstanceOf(MalformedPacketException.class)
                    .hasMessage("ERR packet: 2 bytes left (expected: >= 3)");
        }

        @Test
        void requiresAFiveCharacterSqlState() {
            assertThatThrownBy(() -> new ErrPacket(1, "4200", "x"))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("sqlState: '4200' (expected: 5 characters)");
        }
    }

    private static OkPacket decodeOk(byte[] bytes, long capabilities) {
        return OkPacket.decode(Unpooled.wrappedBuffer(bytes), capabilities);
    }

    @Nested
    class OkPackets {
        private static final long PLAIN = Capabilities.CLIENT_PROTOCOL_41;
        private static final long TRACK = Capabilities.CLIENT_PROTOCOL_41 | Capabilities.CLIENT_SESSION_TRACK;

        @Test
        void encodesTheShortestOk() {
            assertThat(bytesOf(OkPacket.of(0, 0, ServerStatus.AUTOCOMMIT, 0).encode(ALLOC, PLAIN)))
                    .isEqualTo(hex("00 00 00 0200 0000"));
            assertThat(bytesOf(OkPacket.of(0, 0, ServerStatus.AUTOCOMMIT, 0).encode(ALLOC, TRACK)))
                    .as("no info and no state change: nothing after the warnings")
                    .isEqualTo(hex("00 00 00 0200 0000"));
        }

        @Test
        void encodesLengthEncodedCountsAndWarnings() {
            OkPacket ok = new OkPacket(0, 300, 70000, ServerStatus.AUTOCOMMIT | ServerStatus.IN_TRANS, 2, "", new byte[0]);
            assertThat(bytesOf(ok.encode(ALLOC, PLAIN))).isEqualTo(hex("00 fc2c01 fd701101 0300 0200"));
        }

        @Test
        void decodesTheInfoAsTheRestOfThePacketWithoutSessionTrack() {
            byte[] bytes = concat(hex("00 02 00 0200 0000"), ascii("Records: 2  Duplicates: 0  Warnings: 0"));
            OkPacket ok = decodeInPlace(bytes, (ByteBuf b) -> OkPacket.decode(b, PLAIN));
            assertThat(ok.header()).isEqualTo(OkPacket.HEADER);
            assertThat(ok.affectedRows()).isEqualTo(2);
            assertThat(ok.lastInsertId()).isZero();
            assertThat(ok.status()).isEqualTo(ServerStatus.AUTOCOMMIT);
            assertThat(ok.warnings()).isZero();
            assertThat(ok.info()).isEqualTo("Records: 2  Duplicates: 0  Warnings: 0");
            assertThat(ok.sessionState()).isEmpty();
            assertThat(bytesOf(ok.encode(ALLOC, PLAIN))).isEqualTo(bytes);
        }

        @Test
        void encodesInfoAsALengthEncodedStringWithSessionTrack() {
            OkPacket ok = new OkPacket(0, 1, 0, ServerStatus.AUTOCOMMIT, 0, "Rows matched: 1  Changed: 1  Warnings: 0",
                    new byte[0]);
            byte[] bytes = bytesOf(ok.encode(ALLOC, TRACK));
            assertThat(bytes).isEqualTo(concat(hex("00 01 00 0200 0000 28"), ascii("Rows matched: 1  Changed: 1  Warnings: 0")));
            assertThat(decodeOk(bytes, TRACK)).usingRecursiveComparison().isEqualTo(ok);
        }

        @Test
        void carriesSessionStateWhenTheStatusSaysItChanged() {
            // SESSION_TRACK_SCHEMA (1), entry length 5, schema name "shop" as a length-encoded string.
            byte[] state = concat(hex("01 05 04"), ascii("shop"));
            int status = ServerStatus.AUTOCOMMIT | ServerStatus.SESSION_STATE_CHANGED;
            OkPacket ok = new OkPacket(0, 0, 0, status, 0, "", state);

            byte[] bytes = bytesOf(ok.encode(ALLOC, TRACK));
            assertThat(bytes).isEqualTo(concat(hex("00 00 00 0240 0000 00 07"), state));
            OkPacket decoded = decodeOk(bytes, TRACK);
            assertThat(decoded.sessionState()).isEqualTo(state);
            assertThat(decoded).usingRecursiveComparison().isEqualTo(ok);
        }

        @Test
        void keepsTheEofHeaderOfAResultSetTerminator() {
            OkPacket ok = decodeOk(hex("fe 00 00 2200 0000"), TRACK);
            assertThat(ok.header()).isEqualTo(OkPacket.EOF_HEADER);
            assertThat(ok.status()).isEqualTo(ServerStatus.AUTOCOMMIT | ServerStatus.NO_INDEX_USED);
            assertThat(bytesOf(ok.encode(ALLOC, TRACK))).isEqualTo(hex("fe 00 00 2200 0000"));
        }

        @Test
        void rejectsAPacketCutBeforeTheStatus() {
            assertThatThrownBy(() -> decodeOk(hex("00 01 00 02"), PLAIN))
                    .isInstanceOf(MalformedPacketException.class)
                    .hasMessage("OK packet status and warnings: 1 bytes left (expected: >= 4)");
        }

        @Test
        void rejectsInfoLongerThanThePacket() {
            assertThatThrownBy(() -> decodeOk(hex("00 00 00 0200 0000 09 6162"), TRACK))
                    .isInstanceOf(MalformedPacketException.class)
                    .hasMessage("length-encoded string length: 9 (expected: <= 2 remaining bytes)");
        }
    }

    @Nested
    class HandshakeV10Packets {
        /**
         * The first packet of a MariaDB 10.11.19 (Debian 12 package) on 127.0.0.1, read with a plain
         * socket: 4-byte header (length 100, sequence 0), then the payload.
         */
        private static final String MARIADB_10_11 = "640000000a352e352e352d31302e31312e31392d4d6172696144422d302b6465"
                + "62313275310003000000495f273f49325a5200fef7080200ff81150000000000001d0000006a4041624e3c2233"
                + "77254c31006d7973716c5f6e61746976655f70617373776f726400";

        private static final byte[] SCRAMBLE = ascii("0123456789abcdefghij");

        @Test
        void decodesARealMariaDbHandshake() {
            byte[] wire = hex(MARIADB_10_11);
            assertThat(wire.length - 4).isEqualTo(0x64);
            byte[] payload = java.util.Arrays.copyOfRange(wire, 4, wire.length);

            HandshakeV10 handshake = decodeInPlace(payload, HandshakeV10::decode);

            assertThat(handshake.serverVersion()).isEqualTo("5.5.5-10.11.19-MariaDB-0+deb12u1");
            assertThat(handshake.connectionId()).isEqualTo(3);
            assertThat(new String(handshake.scramble(), StandardCharsets.US_ASCII)).isEqualTo("I_'?I2ZRj@AbN<\"3w%L1");
            assertThat(handshake.scramble()).hasSize(20);
            assertThat(handshake.capabilities()).isEqualTo(0x81FFF7FEL);
            assertThat(Capabilities.has(handshake.capabilities(), Capabilities.CLIENT_LONG_PASSWORD))
                    .as("MariaDB clears bit 0 to announce its extended capabilities").isFalse();
            assertThat(Capabilities.has(handshake.capabilities(), Capabilities.CLIENT_DEPRECATE_EOF)).isTrue();
            assertThat(handshake.charset()).isEqualTo(8);
            assertThat(handshake.status()).isEqualTo(ServerStatus.AUTOCOMMIT);
            assertThat(handshake.authPlugin()).isEqualTo("mysql_native_password");
        }

        @Test
        void encodesTheScrambleAsEightBytesFillerTwelveBytesAndNul() {
            long caps = Capabilities.SERVER_DEFAULT;
            HandshakeV10 handshake = new HandshakeV10("8.0.36-shardgate", 0x01020304L, SCRAMBLE, caps, 45,
                    ServerStatus.AUTOCOMMIT, "caching_sha2_password");

            byte[] expected = concat(hex("0a"), ascii("8.0.36-shardgate"), hex("00"), hex("04030201"),
                    ascii("01234567"), hex("00"),
                    new byte[] {(byte) caps, (byte) (caps >>> 8)}, hex("2d"), hex("0200"),
                    new byte[] {(byte) (caps >>> 16), (byte) (caps >>> 24)}, hex("15"), new byte[10],
                    ascii("89abcdefghij"), hex("00"), ascii("caching_sha2_password"), hex("00"));
            assertThat(bytesOf(handshake.encode(ALLOC))).isEqualTo(expected);
        }

        @Test
        void decodesWhatItEncodes() {
            HandshakeV10 handshake = new HandshakeV10("8.0.36-shardgate", 0xFFFFFFFEL, SCRAMBLE,
                    Capabilities.SERVER_DEFAULT | Capabilities.CLIENT_SSL, 255, ServerStatus.AUTOCOMMIT, "mysql_native_password");
            HandshakeV10 decoded = decode(bytesOf(handshake.encode(ALLOC)), HandshakeV10::decode);
            assertThat(decoded).usingRecursiveComparison().isEqualTo(handshake);
            assertThat(decoded.scramble()).isEqualTo(SCRAMBLE);
        }

        @Test
        void rejectsAnotherProtocolVersion() {
            assertThatThrownBy(() -> decode(hex("09 00"), HandshakeV10::decode))
                    .isInstanceOf(MalformedPacketException.class)
                    .hasMessage("handshake protocol version: 9 (expected: 10)");
        }

        @Test
        void rejectsAServerVersionWithoutNul() {
            assertThatThrownBy(() -> decode(concat(hex("0a"), ascii("10.11")), HandshakeV10::decode))
                    .isInstanceOf(MalformedPacketException.class)
                    .hasMessage("NUL-terminated string has no NUL in the 5 remaining bytes");
        }

        @Test
        void rejectsAHandshakeCutInTheScramble() {
            byte[] payload = hex(MARIADB_10_11.substring(8));
            byte[] cut = java.util.Arrays.copyOfRange(payload, 0, 40);
            assertThatThrownBy(() -> decode(cut, HandshakeV10::decode))
                    .isInstanceOf(MalformedPacketException.class)
                    .hasMessage("handshake: 6 bytes left (expected: >= 15)");
        }
    }

    @Nested
    class HandshakeResponses {
        private static final long FULL = Capabilities.CLIENT_PROTOCOL_41 | Capabilities.CLIENT_SECURE_CONNECTION
                | Capabilities.CLIENT_CONNECT_WITH_DB | Capabilities.CLIENT_PLUGIN_AUTH | Capabilities.CLIENT_CONNECT_ATTRS
                | Capabilities.CLIENT_PLUGIN_AUTH_LENENC_CLIENT_DATA | Capabilities.CLIENT_ZSTD_COMPRESSION_ALGORITHM
                | Capabilities.CLIENT_COMPRESS | Capabilities.CLIENT_DEPRECATE_EOF;
        private static final byte[] AUTH = hex("0102030405060708090a0b0c0d0e0f1011121314");

        private static Map<String, String> attributes() {
            Map<String, String> attributes = new LinkedHashMap<>();
            attributes.put("_client_name", "libmariadb");
            attributes.put("_os", "Linux");
            return attributes;
        }

        /** A full response as a client writes it, built field by field from the protocol docs. */
        private static byte[] fullResponseBytes() {
            return fullResponseBytes(concat(hex("0c"), ascii("_client_name"), hex("0a"), ascii("libmariadb"),
                    hex("03"), ascii("_os"), hex("05"), ascii("Linux")));
        }

        private static byte[] fullResponseBytes(byte[] attrs) {
            return concat(new byte[] {(byte) FULL, (byte) (FULL >>> 8), (byte) (FULL >>> 16), (byte) (FULL >>> 24)},
                    hex("00000001"), hex("2d"), new byte[23],
                    ascii("app"), hex("00"),
                    hex("14"), AUTH,
                    ascii("shop"), hex("00"),
                    ascii("mysql_native_password"), hex("00"),
                    new byte[] {(byte) attrs.length}, attrs,
                    hex("03"));
        }

        private static HandshakeResponse41 fullResponse() {
            return new HandshakeResponse41(FULL, 1L << 24, 45, "app", AUTH, "shop", "mysql_native_password",
                    attributes(), 3);
        }

        @Test
        void decodesEveryOptionalField() {
            HandshakeResponse41 response = decodeInPlace(fullResponseBytes(), HandshakeResponse41::decode);
            assertThat(response.capabilities()).isEqualTo(FULL);
            assertThat(response.maxPacketSize()).isEqualTo(1L << 24);
            assertThat(response.charset()).isEqualTo(45);
            assertThat(response.user()).isEqualTo("app");
            assertThat(response.authResponse()).isEqualTo(AUTH);
            assertThat(response.database()).isEqualTo("shop");
            assertThat(response.authPlugin()).isEqualTo("mysql_native_password");
            assertThat(response.attributes()).containsExactlyInAnyOrderEntriesOf(attributes());
            assertThat(response.zstdLevel()).isEqualTo(3);
        }

        @Test
        void encodesEveryOptionalFieldIncludingTheZstdLevel() {
            // One attribute: the record keeps attributes in a Map.copyOf, which has no order.
            HandshakeResponse41 response = new HandshakeResponse41(FULL, 1L << 24, 45, "app", AUTH, "shop",
                    "mysql_native_password", Map.of("_client_name", "libmariadb"), 3);
            assertThat(bytesOf(response.encode(ALLOC))).isEqualTo(
                    fullResponseBytes(concat(hex("0c"), ascii("_client_name"), hex("0a"), ascii("libmariadb"))));
        }

        @Test
        void roundTrips() {
            HandshakeResponse41 response = fullResponse();
            assertThat(decode(bytesOf(response.encode(ALLOC)), HandshakeResponse41::decode))
                    .usingRecursiveComparison().isEqualTo(response);
        }

        @Test
        void readsAOneByteAuthLengthWithoutLenencClientData() {
            long caps = Capabilities.CLIENT_PROTOCOL_41 | Capabilities.CLIENT_SECURE_CONNECTION;
            HandshakeResponse41 response = new HandshakeResponse41(caps, 0xFFFFFFFFL, 33, "root", AUTH, "", "",
                    Map.of(), 0);
            byte[] bytes = bytesOf(response.encode(ALLOC));
            assertThat(bytes).isEqualTo(concat(hex("00820000 ffffffff 21"), new byte[23], ascii("root"), hex("00 14"), AUTH));
            assertThat(decode(bytes, HandshakeResponse41::decode)).usingRecursiveComparison().isEqualTo(response);
        }

        @Test
        void ignoresTheDatabaseAndPluginWhenTheirFlagsAreOff() {
            long caps = Capabilities.CLIENT_PROTOCOL_41 | Capabilities.CLIENT_PLUGIN_AUTH_LENENC_CLIENT_DATA;
            byte[] bytes = concat(hex("00022000 00000001 2d"), new byte[23], ascii("u"), hex("00 00"), ascii("shop"), hex("00"));
            HandshakeResponse41 response = decode(bytes, HandshakeResponse41::decode);
            assertThat(response.capabilities()).isEqualTo(caps);
            assertThat(response.authResponse()).isEmpty();
            assertThat(response.database()).isEmpty();
            assertThat(response.authPlugin()).isEmpty();
            assertThat(response.attributes()).isEmpty();
        }

        @Test
        void detectsAnSslRequest() {
            long caps = Capabilities.CLIENT_PROTOCOL_41 | Capabilities.CLIENT_SSL | Capabilities.CLIENT_SECURE_CONNECTION;
            byte[] ssl = concat(new byte[] {(byte) caps, (byte) (caps >>> 8), 0, 0}, hex("00000001 2d"), new byte[23]);
            assertThat(ssl).hasSize(HandshakeResponse41.SSL_REQUEST_LENGTH);
            assertThat(HandshakeResponse41.isSslRequest(Unpooled.wrappedBuffer(ssl))).isTrue();

            ByteBuf shifted = Unpooled.wrappedBuffer(concat(hex("ffff"), ssl)).skipBytes(2);
            assertThat(HandshakeResponse41.isSslRequest(shifted)).as("reads from the reader index").isTrue();

            byte[] plain = ssl.clone();
            plain[1] &= (byte) ~(Capabilities.CLIENT_SSL >>> 8);
            assertThat(HandshakeResponse41.isSslRequest(Unpooled.wrappedBuffer(plain))).as("no CLIENT_SSL").isFalse();
            assertThat(HandshakeResponse41.isSslRequest(Unpooled.wrappedBuffer(concat(ssl, hex("00")))))
                    .as("a full response that has CLIENT_SSL").isFalse();
            assertThat(HandshakeResponse41.isSslRequest(Unpooled.wrappedBuffer(fullResponseBytes()))).isFalse();
        }

        @Test
        void rejectsAnSslRequestAsAFullResponse() {
            long caps = Capabilities.CLIENT_PROTOCOL_41 | Capabilities.CLIENT_SSL;
            byte[] ssl = concat(new byte[] {(byte) caps, (byte) (caps >>> 8), 0, 0}, hex("00000001 2d"), new byte[23]);
            assertThatThrownBy(() -> decode(ssl, HandshakeResponse41::decode))
                    .isInstanceOf(MalformedPacketException.class)
                    .hasMessage("NUL-terminated string has no NUL in the 0 remaining bytes");
        }

        @Test
        void rejectsATruncatedResponse() {
            assertThatThrownBy(() -> decode(hex("0002000000000001"), HandshakeResponse41::decode))
                    .isInstanceOf(MalformedPacketException.class)
                    .hasMessage("handshake response: 8 bytes left (expected: >= 32)");
        }

        @Test
        void rejectsProtocol320() {
            assertThatThrownBy(() -> decode(concat(hex("00800000 00000001 2d"), new byte[23]), HandshakeResponse41::decode))
                    .isInstanceOf(MalformedPacketException.class)
                    .hasMessage("handshake response without CLIENT_PROTOCOL_41 (protocol 3.20 is not supported)");
        }

        @Test
        void rejectsAnAuthResponseLongerThanThePacket() {
            byte[] bytes = concat(hex("00022000 00000001 2d"), new byte[23], ascii("u"), hex("00 14 0102"));
            assertThatThrownBy(() -> decode(bytes, HandshakeResponse41::decode))
                    .isInstanceOf(MalformedPacketException.class)
                    .hasMessage("length-encoded string length: 20 (expected: <= 2 remaining bytes)");
        }

        @Test
        void rejectsAOneByteAuthLengthLongerThanThePacket() {
            byte[] bytes = concat(hex("00820000 00000001 2d"), new byte[23], ascii("u"), hex("00 14 0102"));
            assertThatThrownBy(() -> decode(bytes, HandshakeResponse41::decode))
                    .isInstanceOf(MalformedPacketException.class)
                    .hasMessage("auth response: 2 bytes left (expected: >= 20)");
        }

        @Test
        void rejectsAttributesLongerThanThePacket() {
            byte[] bytes = concat(hex("00021000 00000001 2d"), new byte[23], ascii("u"), hex("00 00 64 0161 0162"));
            assertThatThrownBy(() -> decode(bytes, HandshakeResponse41::decode))
                    .isInstanceOf(MalformedPacketException.class)
                    .hasMessage("connection attributes length: 100 (expected: <= 4)");
        }

        @Test
        void rejectsAnAttributeValueCutByTheAttributesLength() {
            // The attributes block says 3 bytes: key "a", then a value that claims 1 byte but is cut off.
            byte[] bytes = concat(hex("00021000 00000001 2d"), new byte[23], ascii("u"), hex("00 00 03 0161 01 62"));
            assertThatThrownBy(() -> decode(bytes, HandshakeResponse41::decode))
                    .isInstanceOf(MalformedPacketException.class)
                    .hasMessage("length-encoded string length: 1 (expected: <= 0 remaining bytes)");
        }
    }

    @Nested
    class AuthSwitchRequests {
        @Test
        void encodesPluginNameThenDataAndNul() {
            AuthSwitchRequest request = new AuthSwitchRequest("mysql_native_password", ascii("0123456789abcdefghij"));
            byte[] bytes = bytesOf(request.encode(ALLOC));
            assertThat(bytes).isEqualTo(concat(hex("fe"), ascii("mysql_native_password"), hex("00"),
                    ascii("0123456789abcdefghij"), hex("00")));
            AuthSwitchRequest decoded = decode(bytes, AuthSwitchRequest::decode);
            assertThat(decoded.plugin()).isEqualTo("mysql_native_password");
            assertThat(decoded.data()).isEqualTo(ascii("0123456789abcdefghij"));
        }

        @Test
        void readsTheOldPasswordSwitchOfABareHeader() {
            AuthSwitchRequest decoded = decode(hex("fe"), AuthSwitchRequest::decode);
            assertThat(decoded.plugin()).isEqualTo("mysql_old_password");
            assertThat(decoded.data()).isEmpty();
        }
    }

    @Nested
    class LengthEncodedIntegers {
        @ParameterizedTest(name = "{0} -> {1}")
        @CsvSource({
                "0, 00",
                "1, 01",
                "250, fa",
                "251, fcfb00",
                "252, fcfc00",
                "65535, fcffff",
                "65536, fd000001",
                "16777215, fdffffff",
                "16777216, fe0000000100000000",
                "4294967296, fe0000000001000000",
                "1099511627781, fe0500000000010000",
                "9223372036854775807, feffffffffffffff7f",
        })
        void encodesAndDecodesAtEveryBoundary(long value, String bytes) {
            ByteBuf buf = Unpooled.buffer();
            Wire.writeLenencInt(buf, value);
            assertThat(ByteBufUtil.hexDump(buf)).isEqualTo(bytes);

            buf.writeByte(0x99); // a following byte must stay unread
            assertThat(Wire.readLenencInt(buf)).isEqualTo(value);
            assertThat(buf.readableBytes()).isEqualTo(1);
        }

        @ParameterizedTest(name = "[{index}] {1}")
        @CsvSource({
                "'', length-encoded integer: 0 bytes left (expected: >= 1)",
                "fc01, 2-byte length-encoded integer: 1 bytes left (expected: >= 2)",
                "fd0102, 3-byte length-encoded integer: 2 bytes left (expected: >= 3)",
                "fe01020304050607, 8-byte length-encoded integer: 7 bytes left (expected: >= 8)",
                "fb, 'length-encoded integer starts with 0xfb (expected: < 0xfb, 0xfc, 0xfd or 0xfe)'",
                "ff00, 'length-encoded integer starts with 0xff (expected: < 0xfb, 0xfc, 0xfd or 0xfe)'",
        })
        void rejectsTruncatedOrInvalidIntegers(String bytes, String message) {
            assertThatThrownBy(() -> Wire.readLenencInt(Unpooled.wrappedBuffer(hex(bytes))))
                    .isInstanceOf(MalformedPacketException.class)
                    .hasMessage(message);
        }
    }

    @Nested
    class Strings {
        @Test
        void roundTripsLengthEncodedStrings() {
            String text = "x".repeat(251) + "é";
            ByteBuf buf = Unpooled.buffer();
            Wire.writeLenencString(buf, text);
            assertThat(buf.getUnsignedByte(0)).isEqualTo((short) 0xFC);
            assertThat(buf.getUnsignedShortLE(1)).isEqualTo(253);
            assertThat(Wire.readLenencString(buf, StandardCharsets.UTF_8)).isEqualTo(text);
            assertThat(buf.isReadable()).isFalse();
        }

        @Test
        void rejectsAStringLongerThanThePacket() {
            assertThatThrownBy(() -> Wire.readLenencBytes(Unpooled.wrappedBuffer(hex("05 6162"))))
                    .isInstanceOf(MalformedPacketException.class)
                    .hasMessage("length-encoded string length: 5 (expected: <= 2 remaining bytes)");
        }

        @Test
        void rejectsAStringLengthBeyondTheSignedRange() {
            // 0xFE then 2^64 - 1: as a Java long this is negative.
            assertThatThrownBy(() -> Wire.readLenencBytes(Unpooled.wrappedBuffer(hex("fe ffffffffffffffff 61"))))
                    .isInstanceOf(MalformedPacketException.class)
                    .hasMessage("length-encoded string length: 18446744073709551615 (expected: <= 1 remaining bytes)");
        }

        @Test
        void readsNulTerminatedStrings() {
            ByteBuf buf = Unpooled.wrappedBuffer(concat(ascii("root"), hex("00"), ascii("x")));
            assertThat(Wire.readNulString(buf)).isEqualTo("root");
            assertThat(buf.readableBytes()).as("the NUL is consumed").isEqualTo(1);
        }

        @Test
        void rejectsAMissingNul() {
            assertThatThrownBy(() -> Wire.readNulString(Unpooled.wrappedBuffer(ascii("root"))))
                    .isInstanceOf(MalformedPacketException.class)
                    .hasMessage("NUL-terminated string has no NUL in the 4 remaining bytes");
        }
    }
}
