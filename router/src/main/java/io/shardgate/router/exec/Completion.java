package io.shardgate.router.exec;

/**
 * What the OK or EOF packet ending a statement's result reports. Merged over shards: affected rows
 * and warnings add up; the last insert id is the first non-zero one.
 */
public record Completion(long affectedRows, long lastInsertId, int warnings) {

    public static final Completion NONE = new Completion(0, 0, 0);

    public Completion plus(Completion other) {
        return new Completion(affectedRows + other.affectedRows, lastInsertId != 0 ? lastInsertId : other.lastInsertId,
                warnings + other.warnings);
    }

    public Completion withLastInsertId(long id) {
        return new Completion(affectedRows, id, warnings);
    }
}
