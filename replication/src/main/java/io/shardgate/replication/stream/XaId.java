package io.shardgate.replication.stream;

import com.github.shyiko.mysql.binlog.event.XAPrepareEventData;

import java.util.HexFormat;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static java.util.Objects.requireNonNull;

/**
 * An XA transaction's id as the binlog writes it: {@code X'gtrid',X'bqual',formatID} in hex, the way MariaDB logs
 * {@code XA COMMIT} and {@code XA ROLLBACK} whatever form the client used. The XA PREPARE event carries the same id as
 * bytes; both become this value, so a prepare and its end find each other.
 */
record XaId(String gtrid, String bqual, long formatId) {
    private static final HexFormat HEX = HexFormat.of();
    private static final Pattern LOGGED = Pattern.compile("X'([0-9A-Fa-f]*)'(?:\\s*,\\s*X'([0-9A-Fa-f]*)'(?:\\s*,\\s*(\\d+))?)?");

    XaId {
        gtrid = requireNonNull(gtrid, "gtrid is null").toLowerCase(Locale.ROOT);
        bqual = requireNonNull(bqual, "bqual is null").toLowerCase(Locale.ROOT);
    }

    static XaId of(XAPrepareEventData data) {
        byte[] bytes = data.getData();
        int gtridLength = data.getGtridLength();
        return new XaId(HEX.formatHex(bytes, 0, gtridLength), HEX.formatHex(bytes, gtridLength, gtridLength + data.getBqualLength()),
                data.getFormatID());
    }

    /** The id after {@code XA COMMIT} / {@code XA ROLLBACK} in a logged statement; null when it is not in the logged form. */
    static XaId parse(String logged) {
        Matcher matcher = LOGGED.matcher(logged.trim());
        if (!matcher.matches()) {
            return null;
        }
        return new XaId(matcher.group(1), matcher.group(2) == null ? "" : matcher.group(2),
                matcher.group(3) == null ? 1 : Long.parseLong(matcher.group(3)));
    }

    @Override
    public String toString() {
        return "X'" + gtrid + "',X'" + bqual + "'," + formatId;
    }
}
