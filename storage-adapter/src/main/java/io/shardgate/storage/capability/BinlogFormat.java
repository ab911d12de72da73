package io.shardgate.storage.capability;

/** Values of {@code binlog_format}. */
public enum BinlogFormat {
    STATEMENT,
    MIXED,
    ROW
}
