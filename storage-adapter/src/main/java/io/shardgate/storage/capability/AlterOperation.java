package io.shardgate.storage.capability;

/**
 * The kinds of change an {@code ALTER TABLE} (or {@code CREATE INDEX}, {@code DROP INDEX}) makes,
 * as far as online DDL is concerned. One statement may make several.
 */
public enum AlterOperation {
    ADD_INDEX,
    ADD_FULLTEXT_INDEX,
    ADD_SPATIAL_INDEX,
    DROP_INDEX,
    RENAME_INDEX,
    ADD_PRIMARY_KEY,
    DROP_PRIMARY_KEY,
    ADD_FOREIGN_KEY,
    DROP_FOREIGN_KEY,
    ADD_COLUMN,
    ADD_AUTO_INCREMENT_COLUMN,
    DROP_COLUMN,
    /** MODIFY or CHANGE of a column definition; what it costs depends on the old and new definitions. */
    MODIFY_COLUMN,
    RENAME_COLUMN,
    /** ALTER COLUMN … SET DEFAULT / DROP DEFAULT. */
    CHANGE_COLUMN_DEFAULT,
    RENAME_TABLE,
    CHANGE_ENGINE,
    /** FORCE, ENGINE=&lt;its own engine&gt;, or a ROW_FORMAT / KEY_BLOCK_SIZE / page-compression change. */
    REBUILD,
    /** AUTO_INCREMENT=n. */
    CHANGE_AUTO_INCREMENT,
    /** COMMENT, default character set and other metadata-only table options. */
    TABLE_OPTIONS,
    /** CONVERT TO CHARACTER SET; a no-op when the columns already use it, a copy otherwise. */
    CONVERT_CHARSET,
    /** Partition maintenance, CHECK constraints and anything else not classified. */
    OTHER
}
