package io.shardgate.proxy.protocol;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/** Whether bytes are all ASCII, read eight at a time. */
final class Ascii {
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long HIGH_BITS = 0x8080808080808080L;

    private Ascii() {
    }

    /** True when no byte of {@code bytes} has its high bit set. */
    static boolean only(byte[] bytes) {
        int i = 0;
        long high = 0;
        for (int last = bytes.length - Long.BYTES; i <= last; i += Long.BYTES) {
            high |= (long) LONGS.get(bytes, i);
        }
        for (; i < bytes.length; i++) {
            high |= bytes[i];
        }
        return (high & HIGH_BITS) == 0;
    }
}
