package io.shardgate.proxy.session;

import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

import static java.util.Objects.requireNonNull;

/**
 * An immutable set of session settings, name to value: system variables as the server reported
 * them through session tracking, or user variables as SQL literals. Sessions and backend
 * connections share instances, so the common "nothing differs" check is a reference comparison.
 */
public final class SessionVariables {
    public static final SessionVariables NONE = new SessionVariables(new TreeMap<>());

    private final Map<String, String> values;
    private final int hash;

    private SessionVariables(TreeMap<String, String> values) {
        this.values = Collections.unmodifiableMap(values);
        this.hash = values.hashCode();
    }

    public static SessionVariables of(Map<String, String> values) {
        return values.isEmpty() ? NONE : new SessionVariables(new TreeMap<>(values));
    }

    /** These settings with {@code name} set to {@code value}; this instance when nothing changes. */
    public SessionVariables with(String name, String value) {
        requireNonNull(name, "name is null");
        requireNonNull(value, "value is null");
        if (value.equals(values.get(name))) {
            return this;
        }
        TreeMap<String, String> copy = new TreeMap<>(values);
        copy.put(name, value);
        return new SessionVariables(copy);
    }

    /** These settings with every entry of {@code changes} applied. */
    public SessionVariables withAll(Map<String, String> changes) {
        SessionVariables result = this;
        for (Map.Entry<String, String> change : changes.entrySet()) {
            result = result.with(change.getKey(), change.getValue());
        }
        return result;
    }

    public Map<String, String> values() {
        return values;
    }

    public boolean isEmpty() {
        return values.isEmpty();
    }

    @Override
    public boolean equals(Object o) {
        return this == o || (o instanceof SessionVariables other && hash == other.hash && values.equals(other.values));
    }

    @Override
    public int hashCode() {
        return hash;
    }

    @Override
    public String toString() {
        return values.toString();
    }
}
