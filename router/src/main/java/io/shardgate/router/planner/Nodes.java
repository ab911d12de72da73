package io.shardgate.router.planner;

import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;

/** Druid's AST nodes compare structurally (two {@code o} references are equal); the planner needs them by identity. */
final class Nodes {
    private Nodes() {
    }

    /** An empty set comparing its elements by identity. */
    static <T> Set<T> identitySet() {
        return Collections.newSetFromMap(new IdentityHashMap<>());
    }

    /** A set comparing by identity, holding {@code element}. */
    static <T> Set<T> identitySet(T element) {
        Set<T> set = identitySet();
        set.add(element);
        return set;
    }
}
