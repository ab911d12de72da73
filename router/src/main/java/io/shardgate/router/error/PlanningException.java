package io.shardgate.router.error;

import static java.util.Objects.requireNonNull;

/**
 * A statement the router cannot plan, bind or merge, with the MySQL error number, SQLSTATE and
 * message the client should get. Made by {@link PlanningError#exception(Object...)}.
 */
public final class PlanningException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final PlanningError error;

    PlanningException(PlanningError error, String message) {
        super(requireNonNull(message, "message is null"), null, false, false);
        this.error = requireNonNull(error, "error is null");
    }

    public PlanningError error() {
        return error;
    }

    public int errno() {
        return error.errno();
    }

    public String sqlState() {
        return error.sqlState();
    }
}
