package io.shardgate.router.exec;

/** How a column's values compare, from its MySQL field type. */
public enum ValueKind {
    /** TINY, SHORT, INT24, LONG, LONGLONG, YEAR, BIT: Long or BigInteger. */
    INTEGER,
    /** DECIMAL, NEWDECIMAL: BigDecimal. */
    DECIMAL,
    /** FLOAT, DOUBLE: Double. */
    FLOAT,
    /** DATE, DATETIME, TIMESTAMP, TIME: java.time values or Duration. */
    TEMPORAL,
    /** Character strings: compared under the column's collation. */
    STRING,
    /** Binary strings (collation 63): compared byte by byte. */
    BINARY,
    /** Anything else (JSON, GEOMETRY, NULL type): compared as strings of their text. */
    OTHER;

    /** Binary collation id: byte strings. */
    private static final int BINARY_COLLATION = 63;

    /**
     * The kind of a column from the type byte and collation id of its column definition packet
     * (https://mariadb.com/kb/en/result-set-packets/#column-definition-packet).
     */
    public static ValueKind of(int mysqlType, int collationId) {
        return switch (mysqlType) {
            case 1, 2, 3, 8, 9, 13, 16 -> INTEGER;
            case 0, 246 -> DECIMAL;
            case 4, 5 -> FLOAT;
            case 7, 10, 11, 12, 14, 17, 18, 19 -> TEMPORAL;
            case 15, 247, 248, 249, 250, 251, 252, 253, 254 -> collationId == BINARY_COLLATION ? BINARY : STRING;
            default -> OTHER;
        };
    }
}
