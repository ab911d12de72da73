package io.shardgate.proxy.topology;

import java.util.Locale;

/** A backend's administrative state, which operators set through the admin API. */
public enum BackendState {
    /** Takes reads (a replica) or writes (a primary) as usual. */
    SERVING,
    /**
     * Gets no new reads; statements in flight and sessions pinned to it finish, up to the drain
     * timeout, after which its pooled connections close.
     */
    DRAINING,
    /** Out of service: drained like {@link #DRAINING}, and kept out until set serving again. */
    OFFLINE;

    /** Its name in the document and the API: {@code serving}, {@code draining}, {@code offline}. */
    public String configName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The state named {@code text}, in any case; throws IllegalArgumentException naming the choices. */
    public static BackendState parse(String text) {
        for (BackendState state : values()) {
            if (state.configName().equalsIgnoreCase(text)) {
                return state;
            }
        }
        throw new IllegalArgumentException("'" + text + "' is not one of [serving, draining, offline]");
    }
}
