package io.shardgate.storage.aria;

import java.net.URL;
import java.net.URLClassLoader;

/**
 * A class loader that sees what the test class path sees plus the Aria adapter's service file, as
 * if a plugin jar had been added: the file lives under {@code aria-plugin/} in the test resources,
 * not at the root, so that the other tests (the DDL golden cases refuse {@code ENGINE=Aria}) keep
 * seeing only the engines Shardgate ships.
 */
public final class AriaPlugin {
    private AriaPlugin() {
    }

    public static ClassLoader classLoader() {
        URL root = AriaPlugin.class.getClassLoader().getResource("aria-plugin/");
        if (root == null) {
            throw new IllegalStateException("no aria-plugin/ in the test resources");
        }
        return new URLClassLoader(new URL[] {root}, AriaPlugin.class.getClassLoader());
    }
}
