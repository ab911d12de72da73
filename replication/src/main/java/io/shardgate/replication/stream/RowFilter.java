package io.shardgate.replication.stream;

/**
 * Decides per row whether the stream keeps it, for example a key range of a vindex
 * ({@code -80}): the router's vindex functions plug in here. Called on the applier's dispatch
 * thread; must be fast and must not block.
 */
@FunctionalInterface
public interface RowFilter {
    RowFilter KEEP_ALL = row -> true;

    boolean keep(RowChange row);
}
