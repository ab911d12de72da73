package io.shardgate.it;

import org.junit.jupiter.api.Test;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.Enumeration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every class the packaged jar's own code can reach is in the jar (or the JDK). Starting from the
 * {@code io/shardgate} classes, follows each class file's references (its constant pool: class
 * entries and the types in descriptors and signatures) through the jar, as {@code jdeps
 * --missing-deps} does, and reports the references that resolve nowhere. Maven's test class path
 * can hide such a class (commons-lang3 for Druid's parser did, issue 16); the jar cannot.
 *
 * <p>Some libraries reference optional dependencies they probe for at run time and do without;
 * {@link #OPTIONAL} lists those packages with the reason each is safe to leave out. Anything else
 * missing fails the test.
 */
class PackagedJarIT {
    /** Packages referenced from reachable code but deliberately absent, each with why that is safe. */
    private static final Map<String, String> OPTIONAL = optional();

    private static Map<String, String> optional() {
        Map<String, String> optional = new LinkedHashMap<>();
        String tls = "Netty's optional TLS providers and PEM readers: SslContext probes them and uses the JDK's SSLEngine";
        optional.put("io/netty/internal/tcnative/", tls);
        optional.put("org/conscrypt/", tls);
        optional.put("org/bouncycastle/", tls);
        String logging = "logging back ends Netty and Druid probe for, falling back to the next (slf4j, then JUL)";
        optional.put("org/apache/logging/log4j/", logging);
        optional.put("org/apache/log4j/", logging);
        optional.put("org/apache/commons/logging/", logging);
        String annotations = "annotations without run-time retention that matters";
        optional.put("org/jetbrains/annotations/", annotations);
        optional.put("javax/annotation/", annotations);
        optional.put("io/prometheus/metrics/annotations/", annotations);
        String docker = "the Docker fallback of the topology (demo, bench); ServerLaunchers catches NoClassDefFoundError"
                + " and names what is missing";
        optional.put("org/testcontainers/", docker);
        optional.put("com/github/dockerjava/", docker);
        String drivers = "Druid's helpers for other databases' drivers, only called for those databases";
        optional.put("oracle/", drivers);
        optional.put("org/postgresql/", drivers);
        optional.put("ru/yandex/clickhouse/", drivers);
        optional.put("com/github/housepower/", drivers);
        optional.put("org/LatencyUtils/", "Micrometer's optional pause detector (its pom leaves it out; timers work without)");
        optional.put("io/prometheus/metrics/tracer/initializer/",
                "the Prometheus client's tracer initializer, excluded by Micrometer's own pom (no exemplars)");
        optional.put("com/codahale/metrics/", "HikariCP's optional Dropwizard metrics tracker, unused");
        // jetcd (the etcd topology store) brings gRPC, Vert.x 5 and Guava; EtcdTopologyStoreIT runs the store on a
        // class path without these packages.
        String etcdAnnotations = "annotations of gRPC, Guava and Vert.x with no run-time role (a missing annotation "
                + "class is skipped by the JVM)";
        optional.put("com/google/errorprone/annotations/", etcdAnnotations);
        optional.put("com/google/j2objc/annotations/", etcdAnnotations);
        optional.put("io/vertx/codegen/", etcdAnnotations);
        optional.put("org/codehaus/mojo/animal_sniffer/", etcdAnnotations);
        optional.put("io/netty/channel/uring/", "Vert.x's optional native transports: it probes for them and uses NIO "
                + "without them");
        optional.put("io/netty/channel/kqueue/", "Vert.x's optional native transports: it probes for them and uses NIO "
                + "without them");
        optional.put("io/netty/handler/codec/haproxy/", "the PROXY protocol of Vert.x servers; jetcd only makes client "
                + "connections");
        optional.put("com/aayushatharva/brotli4j/", "Netty's optional Brotli codec (Brotli.isAvailable() guards it), "
                + "reached through Vert.x's HTTP client, which jetcd's gRPC does not use for compression");
        optional.put("com/jcraft/jzlib/", "Netty's optional JZlib; its zlib codecs use the JDK's Deflater without it");
        return optional;
    }

    private static final Pattern DESCRIPTOR_TYPE = Pattern.compile("L([A-Za-z_$][\\w$]*(?:/[\\w$]+)+)[;<]");

    @Test
    void everyClassTheProxyCanReachIsInTheJar() throws IOException {
        JarProxy.requireJar();
        Map<String, Set<String>> references = new HashMap<>();
        try (ZipFile jar = new ZipFile(JarProxy.JAR.toFile())) {
            Enumeration<? extends ZipEntry> entries = jar.entries();
            while (entries.hasMoreElements()) {
                ZipEntry entry = entries.nextElement();
                String name = className(entry.getName());
                if (name != null) {
                    try (InputStream in = jar.getInputStream(entry)) {
                        references.computeIfAbsent(name, k -> new HashSet<>()).addAll(referencedClasses(in));
                    }
                }
            }
        }
        Set<String> jdkPackages = new HashSet<>();
        ModuleLayer.boot().modules().forEach(module -> module.getPackages().forEach(p -> jdkPackages.add(p.replace('.', '/'))));

        Deque<String> queue = new ArrayDeque<>();
        Map<String, String> reachedFrom = new HashMap<>();
        for (String name : references.keySet()) {
            if (name.startsWith("io/shardgate/")) {
                reachedFrom.put(name, null);
                queue.add(name);
            }
        }
        Map<String, String> missing = new TreeMap<>();
        Map<String, Set<String>> optionalMissing = new TreeMap<>();
        while (!queue.isEmpty()) {
            String name = queue.poll();
            for (String referenced : references.get(name)) {
                if (reachedFrom.containsKey(referenced)) {
                    continue;
                }
                reachedFrom.put(referenced, name);
                if (references.containsKey(referenced)) {
                    queue.add(referenced);
                } else if (!jdkPackages.contains(packageOf(referenced))) {
                    String reason = OPTIONAL.keySet().stream().filter(referenced::startsWith).findFirst().orElse(null);
                    if (reason == null) {
                        missing.put(referenced, path(referenced, reachedFrom));
                    } else {
                        optionalMissing.computeIfAbsent(reason, k -> new TreeSet<>()).add(referenced);
                    }
                }
            }
        }
        System.out.printf("[packaged-jar-it] %d classes in %s, %d reachable from io/shardgate; missing but optional: %s%n",
                references.size(), JarProxy.JAR.getFileName(), reachedFrom.size(), optionalMissing.keySet());
        assertThat(missing).as("classes the packaged proxy's code reaches that are neither in the jar nor in the JDK"
                + " (class <- referenced from <- ...); declare the dependency that holds them in the pom of the module that"
                + " needs them, or add the package to OPTIONAL with the reason it can be left out").isEmpty();
        assertThat(reachedFrom).as("the walk reached Druid's parser").containsKey("com/alibaba/druid/sql/parser/SQLExprParser");
        assertThat(references).as("commons-lang3, which Druid's parser needs").containsKey("org/apache/commons/lang3/tuple/Pair");
    }

    /**
     * The production jar holds no test fixture and no tool: the topology launcher (it starts MariaDB processes), the
     * benches and the demo are in the tools jar ({@code tools/target/shardgate-tools.jar}), which the same check
     * finds them in, so the check is shown to match what it must keep out.
     */
    @Test
    void theProductionJarHoldsNoTopologyLauncherBenchOrDemo() throws IOException {
        JarProxy.requireJar();
        List<String> shardgateClasses = shardgateClasses(JarProxy.JAR);
        assertThat(shardgateClasses).as("the proxy's own classes").contains("io/shardgate/proxy/Main.class");
        assertThat(shardgateClasses.stream().filter(PackagedJarIT::isFixtureOrTool).toList())
                .as("topology, bench and demo classes in %s", JarProxy.JAR.getFileName()).isEmpty();

        Path tools = JarProxy.HOME.resolve("tools/target/shardgate-tools.jar");
        assertThat(tools).as("the reactor packaged the tools module before this one").isRegularFile();
        assertThat(shardgateClasses(tools).stream().filter(PackagedJarIT::isFixtureOrTool).toList())
                .as("the tools jar holds what the production jar must not")
                .contains("io/shardgate/replication/topology/Topology.class",
                        "io/shardgate/replication/topology/LocalServerLauncher.class",
                        "io/shardgate/tools/demo/DemoCommand.class", "io/shardgate/tools/bench/BenchCommand.class",
                        "io/shardgate/tools/bench/ApplyBench.class");
    }

    /** A class of the topology fixture, of the tools module, or in any {@code bench} or {@code demo} package. */
    private static boolean isFixtureOrTool(String entry) {
        return entry.startsWith("io/shardgate/replication/topology/") || entry.startsWith("io/shardgate/tools/")
                || entry.contains("/bench/") || entry.contains("/demo/");
    }

    private static List<String> shardgateClasses(Path jarFile) throws IOException {
        List<String> classes = new ArrayList<>();
        try (ZipFile jar = new ZipFile(jarFile.toFile())) {
            Enumeration<? extends ZipEntry> entries = jar.entries();
            while (entries.hasMoreElements()) {
                String name = entries.nextElement().getName();
                if (name.startsWith("io/shardgate/") && name.endsWith(".class")) {
                    classes.add(name);
                }
            }
        }
        return classes;
    }

    /** The class an entry holds, counting a multi-release version as the class itself; null for other entries. */
    private static String className(String entry) {
        if (!entry.endsWith(".class") || entry.endsWith("module-info.class") || entry.endsWith("package-info.class")) {
            return null;
        }
        String name = entry.substring(0, entry.length() - ".class".length());
        Matcher versioned = Pattern.compile("META-INF/versions/(\\d+)/(.*)").matcher(name);
        if (versioned.matches()) {
            return Integer.parseInt(versioned.group(1)) <= Runtime.version().feature() ? versioned.group(2) : null;
        }
        return name.startsWith("META-INF/") ? null : name;
    }

    private static String packageOf(String name) {
        int slash = name.lastIndexOf('/');
        return slash < 0 ? "" : name.substring(0, slash);
    }

    private static String path(String name, Map<String, String> reachedFrom) {
        List<String> chain = new ArrayList<>();
        for (String at = name; at != null && chain.size() < 8; at = reachedFrom.get(at)) {
            chain.add(at);
        }
        return String.join(" <- ", chain);
    }

    /** The classes a class file's constant pool names: CONSTANT_Class entries and the types inside descriptors. */
    private static Set<String> referencedClasses(InputStream classFile) throws IOException {
        DataInputStream in = new DataInputStream(classFile);
        if (in.readInt() != 0xCAFEBABE) {
            return Set.of();
        }
        in.readUnsignedShort();
        in.readUnsignedShort();
        int count = in.readUnsignedShort();
        String[] utf8 = new String[count];
        List<Integer> classNameIndexes = new ArrayList<>();
        for (int i = 1; i < count; i++) {
            int tag = in.readUnsignedByte();
            switch (tag) {
                case 1 -> utf8[i] = in.readUTF();
                case 7 -> classNameIndexes.add(in.readUnsignedShort());
                case 8, 16, 19, 20 -> in.readUnsignedShort();
                case 15 -> {
                    in.readUnsignedByte();
                    in.readUnsignedShort();
                }
                case 3, 4, 9, 10, 11, 12, 17, 18 -> in.readInt();
                case 5, 6 -> {
                    in.readLong();
                    i++;
                }
                default -> throw new IOException("constant pool tag " + tag + " (expected: 1 to 20)");
            }
        }
        Set<String> names = new HashSet<>();
        for (int index : classNameIndexes) {
            String name = utf8[index];
            if (name.startsWith("[")) {
                Matcher element = DESCRIPTOR_TYPE.matcher(name);
                while (element.find()) {
                    names.add(element.group(1));
                }
            } else {
                names.add(name);
            }
        }
        for (String text : utf8) {
            if (text != null && (text.startsWith("(") || text.startsWith("L") || text.startsWith("<") || text.startsWith("["))) {
                Matcher type = DESCRIPTOR_TYPE.matcher(text);
                while (type.find()) {
                    names.add(type.group(1));
                }
            }
        }
        return names;
    }
}
