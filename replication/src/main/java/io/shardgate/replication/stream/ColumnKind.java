package io.shardgate.replication.stream;

import com.github.shyiko.mysql.binlog.event.deserialization.ColumnType;

/** The binlog column types the stream carries, collapsed to what conversion and apply need. */
public enum ColumnKind {
    TINYINT(8), SMALLINT(16), MEDIUMINT(24), INT(32), BIGINT(64),
    DECIMAL(0), FLOAT(0), DOUBLE(0),
    DATE(0), TIME(0), DATETIME(0), TIMESTAMP(0), YEAR(0),
    STRING(0), BLOB(0), ENUM(0), SET(0), BIT(0), JSON(0), GEOMETRY(0), OTHER(0);

    private final int integerBits;

    ColumnKind(int integerBits) {
        this.integerBits = integerBits;
    }

    /** Width of an integer type in bits; 0 for everything else. */
    public int integerBits() {
        return integerBits;
    }

    /** Maps a table map column type (after resolving ENUM/SET hidden in STRING) to a kind. */
    public static ColumnKind of(ColumnType type) {
        return switch (type) {
            case TINY -> TINYINT;
            case SHORT -> SMALLINT;
            case INT24 -> MEDIUMINT;
            case LONG -> INT;
            case LONGLONG -> BIGINT;
            case DECIMAL, NEWDECIMAL -> DECIMAL;
            case FLOAT -> FLOAT;
            case DOUBLE -> DOUBLE;
            case DATE, NEWDATE -> DATE;
            case TIME, TIME_V2 -> TIME;
            case DATETIME, DATETIME_V2 -> DATETIME;
            case TIMESTAMP, TIMESTAMP_V2 -> TIMESTAMP;
            case YEAR -> YEAR;
            case VARCHAR, VAR_STRING, STRING -> STRING;
            case TINY_BLOB, MEDIUM_BLOB, LONG_BLOB, BLOB -> BLOB;
            case ENUM -> ENUM;
            case SET -> SET;
            case BIT -> BIT;
            case JSON -> JSON;
            case GEOMETRY -> GEOMETRY;
            default -> OTHER;
        };
    }
}
