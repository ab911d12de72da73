package io.shardgate.proxy.session;

import static java.util.Objects.requireNonNull;

/**
 * The settings a session carries from one pooled backend connection to the next: system
 * variables it changed and user variables it set. A backend connection records the settings it
 * was last brought to, so moving a session there costs nothing when they match.
 */
public record SessionSettings(SessionVariables system, SessionVariables user) {
    public static final SessionSettings DEFAULTS = new SessionSettings(SessionVariables.NONE, SessionVariables.NONE);

    public SessionSettings {
        requireNonNull(system, "system is null");
        requireNonNull(user, "user is null");
    }

    public SessionSettings withSystem(SessionVariables system) {
        return system == this.system ? this : new SessionSettings(system, user);
    }

    public SessionSettings withUser(SessionVariables user) {
        return user == this.user ? this : new SessionSettings(system, user);
    }

    /** True when both hold the same settings (a reference check first: the usual case). */
    public boolean sameAs(SessionSettings other) {
        return this == other || (system.equals(other.system) && user.equals(other.user));
    }
}
