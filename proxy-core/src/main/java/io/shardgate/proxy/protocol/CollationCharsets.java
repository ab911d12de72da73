package io.shardgate.proxy.protocol;

import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;

/**
 * Which Java charset reads and writes the text of a column, from the collation id of its column
 * definition. utf8mb3 and utf8mb4 collations are UTF-8; every other id, binary (63) included, is
 * read and written as ISO-8859-1, which maps each byte to one char and back, so the bytes of a
 * latin1, cp1251 or binary value pass through a String unchanged.
 *
 * <p>The utf8 ids are MariaDB's (10.11, {@code information_schema.COLLATION_CHARACTER_SET_APPLICABILITY}):
 * 33, 45, 46, 83, 192-215, 223-247, 576-578 and 608-610; the same plus 1024 for their NO PAD
 * variants; 2048-2247 (utf8mb3) and 2304-2503 (utf8mb4) for the UCA 14.0 ones. MySQL 8 adds 76 and
 * 255-323, which MariaDB leaves unused.
 */
public final class CollationCharsets {
    private static final int NOPAD = 1024;

    private CollationCharsets() {
    }

    /** Whether {@code collationId} is a utf8mb3 or utf8mb4 collation. */
    public static boolean isUtf8(int collationId) {
        if (collationId >= 2048) {
            return collationId <= 2247 || collationId >= 2304 && collationId <= 2503;
        }
        int base = collationId >= NOPAD ? collationId - NOPAD : collationId;
        return base == 33 || base == 45 || base == 46 || base == 76 || base == 83
                || base >= 192 && base <= 215 || base >= 223 && base <= 247 || base >= 255 && base <= 323
                || base >= 576 && base <= 578 || base >= 608 && base <= 610;
    }

    /** UTF-8 for a utf8 collation, ISO-8859-1 for any other. */
    public static Charset charset(int collationId) {
        return isUtf8(collationId) ? StandardCharsets.UTF_8 : StandardCharsets.ISO_8859_1;
    }
}
