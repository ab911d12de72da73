package io.shardgate.storage.ddl;

/** A part of a table definition that not every engine supports. */
enum Feature {
    FOREIGN_KEY,
    FULLTEXT_INDEX,
    SPATIAL
}
