package io.shardgate.proxy.auth;

import java.io.ByteArrayOutputStream;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;

import static java.util.Objects.requireNonNull;

/**
 * A minimal DER encoder (ITU-T X.690), just enough for X.509 certificates and PKCS#8 key
 * wrapping. Every method returns one complete TLV (tag, definite length, value).
 */
final class Der {
    private static final int TAG_BOOLEAN = 0x01;
    private static final int TAG_INTEGER = 0x02;
    private static final int TAG_BIT_STRING = 0x03;
    private static final int TAG_OCTET_STRING = 0x04;
    private static final int TAG_NULL = 0x05;
    private static final int TAG_OID = 0x06;
    private static final int TAG_UTF8_STRING = 0x0C;
    private static final int TAG_UTC_TIME = 0x17;
    private static final int TAG_GENERALIZED_TIME = 0x18;
    private static final int TAG_SEQUENCE = 0x30;
    private static final int TAG_SET = 0x31;

    private static final DateTimeFormatter UTC_TIME = DateTimeFormatter.ofPattern("yyMMddHHmmss'Z'").withZone(ZoneOffset.UTC);
    private static final DateTimeFormatter GENERALIZED_TIME = DateTimeFormatter.ofPattern("yyyyMMddHHmmss'Z'").withZone(ZoneOffset.UTC);

    private Der() {
    }

    static byte[] sequence(byte[]... elements) {
        return tlv(TAG_SEQUENCE, concat(elements));
    }

    /** A SET of one element (a SET OF with several would need its elements sorted). */
    static byte[] setOf(byte[] element) {
        return tlv(TAG_SET, element);
    }

    static byte[] integer(BigInteger value) {
        requireNonNull(value, "value is null");
        return tlv(TAG_INTEGER, value.toByteArray());
    }

    static byte[] integer(long value) {
        return integer(BigInteger.valueOf(value));
    }

    static byte[] bool(boolean value) {
        return tlv(TAG_BOOLEAN, new byte[] {(byte) (value ? 0xFF : 0x00)});
    }

    static byte[] nullValue() {
        return tlv(TAG_NULL, new byte[0]);
    }

    static byte[] octetString(byte[] value) {
        return tlv(TAG_OCTET_STRING, value);
    }

    /** A BIT STRING of whole bytes (no unused bits), e.g. a signature. */
    static byte[] bitString(byte[] value) {
        return bitString(value, 0);
    }

    /** A BIT STRING whose last byte has {@code unusedBits} trailing bits that do not count. */
    static byte[] bitString(byte[] value, int unusedBits) {
        if (unusedBits < 0 || unusedBits > 7 || (value.length == 0 && unusedBits != 0)) {
            throw new IllegalArgumentException("unusedBits: " + unusedBits + " (expected: 0..7, 0 when empty)");
        }
        byte[] content = new byte[value.length + 1];
        content[0] = (byte) unusedBits;
        System.arraycopy(value, 0, content, 1, value.length);
        return tlv(TAG_BIT_STRING, content);
    }

    static byte[] utf8String(String value) {
        return tlv(TAG_UTF8_STRING, value.getBytes(StandardCharsets.UTF_8));
    }

    /** UTCTime for the years 1950 to 2049, GeneralizedTime otherwise, in whole seconds (RFC 5280 4.1.2.5). */
    static byte[] time(Instant instant) {
        Instant seconds = instant.truncatedTo(ChronoUnit.SECONDS);
        int year = seconds.atZone(ZoneOffset.UTC).getYear();
        if (year >= 1950 && year < 2050) {
            return tlv(TAG_UTC_TIME, UTC_TIME.format(seconds).getBytes(StandardCharsets.US_ASCII));
        }
        return tlv(TAG_GENERALIZED_TIME, GENERALIZED_TIME.format(seconds).getBytes(StandardCharsets.US_ASCII));
    }

    /** An OBJECT IDENTIFIER from its dotted form, e.g. {@code 2.5.4.3}. */
    static byte[] oid(String dotted) {
        String[] arcs = dotted.split("\\.");
        if (arcs.length < 2) {
            throw new IllegalArgumentException("oid: " + dotted + " (expected: at least two arcs)");
        }
        int first = Integer.parseInt(arcs[0]);
        BigInteger second = new BigInteger(arcs[1]);
        if (first > 2 || (first < 2 && second.compareTo(BigInteger.valueOf(40)) >= 0)) {
            throw new IllegalArgumentException("oid: " + dotted + " (first arcs out of range)");
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        writeBase128(out, BigInteger.valueOf(40L * first).add(second));
        for (int i = 2; i < arcs.length; i++) {
            writeBase128(out, new BigInteger(arcs[i]));
        }
        return tlv(TAG_OID, out.toByteArray());
    }

    /** {@code [tagNumber] EXPLICIT}: a constructed context-specific wrapper around one TLV. */
    static byte[] explicit(int tagNumber, byte[] inner) {
        return tlv(0xA0 | checkTagNumber(tagNumber), inner);
    }

    /** {@code [tagNumber] IMPLICIT} of a primitive type: the raw content under a context tag. */
    static byte[] implicitPrimitive(int tagNumber, byte[] content) {
        return tlv(0x80 | checkTagNumber(tagNumber), content);
    }

    static byte[] tlv(int tag, byte[] content) {
        requireNonNull(content, "content is null");
        ByteArrayOutputStream out = new ByteArrayOutputStream(content.length + 6);
        out.write(tag);
        writeLength(out, content.length);
        out.writeBytes(content);
        return out.toByteArray();
    }

    static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] part : parts) {
            out.writeBytes(part);
        }
        return out.toByteArray();
    }

    private static void writeLength(ByteArrayOutputStream out, int length) {
        if (length < 0x80) {
            out.write(length);
            return;
        }
        int bytes = (32 - Integer.numberOfLeadingZeros(length) + 7) / 8;
        out.write(0x80 | bytes);
        for (int shift = 8 * (bytes - 1); shift >= 0; shift -= 8) {
            out.write(length >>> shift);
        }
    }

    private static void writeBase128(ByteArrayOutputStream out, BigInteger value) {
        if (value.signum() < 0) {
            throw new IllegalArgumentException("oid arc: " + value + " (expected: >= 0)");
        }
        int groups = Math.max(1, (value.bitLength() + 6) / 7);
        for (int i = groups - 1; i >= 0; i--) {
            int group = value.shiftRight(7 * i).intValue() & 0x7F;
            out.write(i > 0 ? group | 0x80 : group);
        }
    }

    private static int checkTagNumber(int tagNumber) {
        if (tagNumber < 0 || tagNumber > 30) {
            throw new IllegalArgumentException("tag number: " + tagNumber + " (expected: 0..30)");
        }
        return tagNumber;
    }
}
