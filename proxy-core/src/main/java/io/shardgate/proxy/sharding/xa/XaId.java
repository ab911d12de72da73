package io.shardgate.proxy.sharding.xa;

import io.shardgate.proxy.sharding.GlobalTransactionIds;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * The XA id of one branch of a Shardgate transaction: {@code gtrid} names the global transaction
 * (see {@link GlobalTransactionIds}), {@code bqual} the shard, and the formatID is always
 * {@link #FORMAT_ID}, which is how recovery tells Shardgate's prepared branches from anyone else's.
 * Each part is 1 to 64 bytes of UTF-8 (64 is MariaDB's limit).
 */
public record XaId(String gtrid, String bqual) {
    /** Shardgate's formatID: "SG". */
    public static final int FORMAT_ID = 0x5347;
    /** The longest gtrid or bqual MariaDB accepts, in bytes. */
    public static final int MAX_PART_BYTES = 64;

    public XaId {
        requireNonNull(gtrid, "gtrid is null");
        requireNonNull(bqual, "bqual is null");
        checkLength("gtrid", gtrid);
        checkLength("bqual", bqual);
    }

    private static void checkLength(String part, String value) {
        int length = value.getBytes(StandardCharsets.UTF_8).length;
        if (length < 1 || length > MAX_PART_BYTES) {
            throw new IllegalArgumentException(part + " '" + value + "' is " + length + " bytes (expected: 1.."
                    + MAX_PART_BYTES + ")");
        }
    }

    /**
     * The xid as XA statements take it, in hex so any bytes are safe:
     * {@code X'7367...',X'7330',21319}.
     */
    public String sql() {
        return hex(gtrid) + "," + hex(bqual) + "," + FORMAT_ID;
    }

    private static String hex(String part) {
        return "X'" + HexFormat.of().formatHex(part.getBytes(StandardCharsets.UTF_8)) + "'";
    }

    /**
     * The xid of one {@code XA RECOVER} row (columns formatID, gtrid_length, bqual_length, data);
     * empty when the branch is not Shardgate's (another formatID).
     *
     * @throws IllegalArgumentException when a row with Shardgate's formatID is malformed
     */
    public static Optional<XaId> fromRecoverRow(long formatId, long gtridLength, long bqualLength, byte[] data) {
        requireNonNull(data, "data is null");
        if (formatId != FORMAT_ID) {
            return Optional.empty();
        }
        if (gtridLength < 1 || gtridLength > MAX_PART_BYTES || bqualLength < 1 || bqualLength > MAX_PART_BYTES
                || gtridLength + bqualLength != data.length) {
            throw new IllegalArgumentException("XA RECOVER row with gtrid_length " + gtridLength + ", bqual_length "
                    + bqualLength + " and " + data.length + " bytes of data (expected: lengths adding up to the data)");
        }
        return Optional.of(new XaId(utf8(data, 0, (int) gtridLength), utf8(data, (int) gtridLength, (int) bqualLength)));
    }

    private static String utf8(byte[] data, int offset, int length) {
        try {
            return StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(data, offset, length))
                    .toString();
        } catch (CharacterCodingException e) {
            throw new IllegalArgumentException("XA RECOVER row with Shardgate's formatID is not UTF-8: "
                    + HexFormat.of().formatHex(data), e);
        }
    }

    @Override
    public String toString() {
        return gtrid + "/" + bqual;
    }
}
