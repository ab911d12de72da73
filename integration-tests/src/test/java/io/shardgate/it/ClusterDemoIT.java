package io.shardgate.it;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code ./shardgate demo --cluster}: a local etcd and two proxies on one topology. A replica added with
 * {@code ./shardgate admin} through the first proxy shows in the second's {@code SHOW SHARDGATE TOPOLOGY};
 * Ctrl-C stops everything.
 */
class ClusterDemoIT {
    private static final Pattern PROXY = Pattern.compile("^(proxy-[ab]) listening on 127\\.0\\.0\\.1:(\\d+), admin API on 127\\.0\\.0\\.1:(\\d+)");
    private static final Pattern SPARE = Pattern.compile("add-replica s0 (\\S+)");

    private static String run(List<String> command) throws Exception {
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().put("SHARDGATE_JAR", JarProxy.JAR.toString());
        Process process = builder.start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue()).as(command + "\n" + output).isZero();
        return output;
    }

    @Test
    void twoProxiesFollowOneTopologyInALocalEtcd() throws Exception {
        DemoProcess demo = DemoProcess.start(List.of("--cluster", "--port", "0", "--admin-port", "0"));
        try {
            boolean started = demo.awaitReady(180);
            int[] ports = new int[2];
            int[] adminPorts = new int[2];
            String spare = null;
            List<String> lines = demo.lines();
            assertThat(started).as("demo --cluster printed Ready; output:\n" + String.join("\n", lines)).isTrue();
            for (String line : lines) {
                Matcher proxy = PROXY.matcher(line);
                if (proxy.find()) {
                    int i = proxy.group(1).equals("proxy-a") ? 0 : 1;
                    ports[i] = Integer.parseInt(proxy.group(2));
                    adminPorts[i] = Integer.parseInt(proxy.group(3));
                }
                Matcher add = SPARE.matcher(line);
                if (add.find()) {
                    spare = add.group(1);
                }
            }
            assertThat(ports).doesNotContain(0);
            assertThat(spare).isNotNull();
            String admin = JarProxy.HOME.resolve("shardgate").toString();
            String url = "http://127.0.0.1:" + adminPorts[0];
            assertThat(run(List.of(admin, "admin", "--url", url, "--token", "change-me", "proxies")))
                    .contains("proxy-a").contains("proxy-b");
            assertThat(run(List.of(admin, "admin", "--url", url, "--token", "change-me", "add-replica", "s0", spare)))
                    .contains("\"version\"");
            String shown = "";
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (!shown.contains(spare) && System.nanoTime() - deadline < 0) {
                shown = run(List.of("mariadb", "-h127.0.0.1", "-P" + ports[1], "-uapp", "-papp", "--batch", "--skip-column-names",
                        "-e", "SHOW SHARDGATE TOPOLOGY"));
            }
            assertThat(shown).as("proxy-b serves the replica added through proxy-a").contains(spare + "\tserving");
            assertThat(shown).contains("\tOK\t");
        } finally {
            assertThat(demo.stop("TERM")).as("demo --cluster exits after SIGTERM").isTrue();
        }
        assertThat(demo.lines()).anyMatch(line -> line.startsWith("Demo stopped"));
    }
}
