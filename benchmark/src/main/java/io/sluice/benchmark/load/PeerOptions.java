package io.sluice.benchmark.load;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * How the harness starts peer servers.
 *
 * @param heap             heap of every broker JVM (-Xms = -Xmx), e.g. {@code 4g}
 * @param rocketmqVersion  Apache RocketMQ name server and broker version (Maven Central)
 * @param kafkaVersion     Kafka server version (Maven Central, {@code kafka_2.13})
 * @param cacheDir         where resolved peer class paths are cached
 * @param mavenCommand     the {@code mvn} executable
 * @param sluiceClassPath  class path of the Sluice broker (the harness's own)
 * @param sluiceConfig     broker keys for the Sluice peer that replace or add to the harness's (validated by the
 *                         broker at start: an unknown key or bad value stops it with an error naming it)
 * @param extraBrokerJvm   JVM options appended to every broker's, after the defaults (a later option wins, so
 *                         {@code -XX:MaxGCPauseMillis=5} replaces the default goal)
 */
record PeerOptions(String heap, String rocketmqVersion, String kafkaVersion, Path cacheDir, String mavenCommand,
                   String sluiceClassPath, Map<String, String> sluiceConfig, List<String> extraBrokerJvm) {

    PeerOptions {
        extraBrokerJvm = List.copyOf(extraBrokerJvm);
    }

    /**
     * The JVM options of every broker, Sluice's, Apache's and Kafka's alike: fixed heap, G1 with a 20 ms pause goal,
     * a 2 GiB direct-memory budget, no JVM statistics file (bin/sluice explains each choice); then
     * {@link #extraBrokerJvm()}.
     */
    List<String> brokerJvm() {
        List<String> jvm = new ArrayList<>(List.of("-Xms" + heap, "-Xmx" + heap, "-XX:MaxDirectMemorySize=2g",
                "-XX:+UseG1GC", "-XX:MaxGCPauseMillis=20", "-XX:+PerfDisableSharedMem",
                "-Djava.net.preferIPv4Stack=true", "-Djava.awt.headless=true"));
        jvm.addAll(extraBrokerJvm);
        return List.copyOf(jvm);
    }
}
