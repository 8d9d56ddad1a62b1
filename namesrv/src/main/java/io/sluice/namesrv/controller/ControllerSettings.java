package io.sluice.namesrv.controller;

import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import java.util.Set;

/**
 * Immutable, validated controller settings, Apache's controller key names:
 * <pre>
 * key                          unit       default              meaning
 * enableControllerInNamesrv    boolean    false                run a controller inside the name server, on its port
 * controllerDLegerGroup        name       DefaultControllerGroup  the Raft group's name (same on every controller)
 * controllerDLegerPeers        id-host:port;...  n0-127.0.0.1:9877  every controller's Raft address
 * controllerDLegerSelfId       id         n0                   this controller's id among the peers
 * controllerStorePath          path       ${user.home}/DledgerController  Raft log and snapshots
 * scanNotActiveBrokerInterval  ms         1000                 how often the leader looks for overdue masters
 * </pre>
 *
 * @param enabled         whether a name server embeds a controller (a standalone controller ignores it)
 * @param group           the Raft group name
 * @param peers           controller id to its Raft {@code host:port}, in the order written
 * @param selfId          this controller's id, one of {@code peers}
 * @param storePath       directory of the Raft log and snapshots
 * @param scanIntervalMs  period of the election agent's scan, positive
 */
public record ControllerSettings(boolean enabled, String group, Map<String, String> peers, String selfId,
                                 Path storePath, long scanIntervalMs) {

    /** The controller's key names. */
    public static final Set<String> KEYS = Set.of("enableControllerInNamesrv", "controllerDLegerGroup",
            "controllerDLegerPeers", "controllerDLegerSelfId", "controllerStorePath", "scanNotActiveBrokerInterval");

    /** Validates the values; the exception names the bad one. */
    public ControllerSettings {
        if (group == null || group.isBlank()) {
            throw new IllegalArgumentException("controllerDLegerGroup must not be blank");
        }
        if (peers == null || peers.isEmpty()) {
            throw new IllegalArgumentException("controllerDLegerPeers must name at least one controller");
        }
        peers = Collections.unmodifiableMap(new LinkedHashMap<>(peers));
        if (!peers.containsKey(selfId)) {
            throw new IllegalArgumentException("controllerDLegerSelfId '" + selfId + "' is not one of "
                    + "controllerDLegerPeers " + peers.keySet());
        }
        if (storePath == null) {
            throw new IllegalArgumentException("controllerStorePath must be set");
        }
        if (scanIntervalMs <= 0) {
            throw new IllegalArgumentException("scanNotActiveBrokerInterval must be positive: " + scanIntervalMs);
        }
    }

    /** A single controller {@code n0} on {@code raftAddress}, storing under {@code storePath}. */
    public static ControllerSettings single(String raftAddress, Path storePath) {
        return new ControllerSettings(true, "DefaultControllerGroup", Map.of("n0", raftAddress), "n0", storePath,
                1_000);
    }

    /**
     * Defaults overridden by the controller keys of {@code properties} (other keys are ignored).
     *
     * @throws IllegalArgumentException naming a bad value
     */
    public static ControllerSettings fromProperties(Properties properties) {
        String peers = properties.getProperty("controllerDLegerPeers", "n0-127.0.0.1:9877");
        return new ControllerSettings(
                parseBoolean(properties.getProperty("enableControllerInNamesrv", "false")),
                properties.getProperty("controllerDLegerGroup", "DefaultControllerGroup").trim(),
                parsePeers(peers),
                properties.getProperty("controllerDLegerSelfId", "n0").trim(),
                Path.of(properties.getProperty("controllerStorePath",
                        System.getProperty("user.home") + "/DledgerController").trim()),
                parseLong(properties.getProperty("scanNotActiveBrokerInterval", "1000")));
    }

    /** {@code n0-host:port;n1-host:port}: id, dash, Raft address; separated by semicolons. */
    static Map<String, String> parsePeers(String text) {
        Map<String, String> peers = new LinkedHashMap<>();
        for (String part : text.split(";")) {
            String peer = part.trim();
            if (peer.isEmpty()) {
                continue;
            }
            int dash = peer.indexOf('-');
            int colon = peer.lastIndexOf(':');
            if (dash <= 0 || colon < dash + 2 || colon == peer.length() - 1) {
                throw new IllegalArgumentException("controllerDLegerPeers entry '" + peer
                        + "' is not id-host:port");
            }
            // Checked here, not when the Raft server binds: a bad port must fail naming its key.
            String port = peer.substring(colon + 1);
            if (port.length() > 5 || !port.chars().allMatch(c -> c >= '0' && c <= '9')
                    || Integer.parseInt(port) < 1 || Integer.parseInt(port) > 65_535) {
                throw new IllegalArgumentException("controllerDLegerPeers entry '" + peer
                        + "' has no port 1..65535");
            }
            if (peers.put(peer.substring(0, dash), peer.substring(dash + 1)) != null) {
                throw new IllegalArgumentException("controllerDLegerPeers names " + peer.substring(0, dash)
                        + " twice");
            }
        }
        return peers;
    }

    private static boolean parseBoolean(String value) {
        String text = value.trim();
        if (!text.equalsIgnoreCase("true") && !text.equalsIgnoreCase("false")) {
            throw new IllegalArgumentException("enableControllerInNamesrv must be true or false: '" + value + "'");
        }
        return Boolean.parseBoolean(text);
    }

    private static long parseLong(String value) {
        try {
            return Long.parseLong(value.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("scanNotActiveBrokerInterval must be a number: '" + value + "'", e);
        }
    }

    /** The Raft port of this controller. */
    int selfPort() {
        String address = peers.get(selfId);
        return Integer.parseInt(address.substring(address.lastIndexOf(':') + 1));
    }
}
