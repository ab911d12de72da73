package io.shardgate.replication.lag;

/** One server's poll, run over and over by a {@link PollLoop} on that loop's thread only. */
interface Probe extends AutoCloseable {

    /** Polls once and reports the result; never throws. */
    void poll();

    /** Releases the connection; runs on the loop's thread after its last poll. */
    @Override
    void close();
}
