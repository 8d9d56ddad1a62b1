package io.sluice.namesrv.controller;

import io.sluice.remoting.protocol.body.JsonObjects;
import com.alibaba.fastjson2.JSONArray;
import com.alibaba.fastjson2.JSONException;
import com.alibaba.fastjson2.JSONObject;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.zip.CRC32C;

/**
 * The layout of a controller snapshot file (Ratis names it {@code snapshot.<term>_<index>} in the state machine
 * directory): the whole {@link ReplicaTable} as UTF-8 JSON after a one-line header carrying the CRC32C of the JSON,
 * so a damaged file is detected rather than half loaded.
 *
 * <pre>
 *   sluice-controller-snapshot v1 crc32c=&lt;8 hex digits&gt;\n
 *   {"groups":[
 *     {"clusterName":s, "brokerName":s, "nextBrokerId":long, "masterBrokerId":long (-1 = none),
 *      "masterEpoch":int, "syncStateSet":[long, ...], "syncStateSetEpoch":int,
 *      "replicas":[{"brokerId":long, "address":"host:port", "haAddress":"host:port"}, ...]},
 *     ...]}
 * </pre>
 *
 * <p>Stateless; thread-safe.
 */
final class ControllerSnapshotDescriptor {

    static final String HEADER_PREFIX = "sluice-controller-snapshot v1 crc32c=";

    private ControllerSnapshotDescriptor() {
    }

    static byte[] encode(Collection<ReplicaGroup> groups) {
        JSONArray array = new JSONArray();
        for (ReplicaGroup group : groups) {
            JSONObject json = new JSONObject();
            json.put("clusterName", group.clusterName);
            json.put("brokerName", group.brokerName);
            json.put("nextBrokerId", group.nextBrokerId);
            json.put("masterBrokerId", group.masterBrokerId);
            json.put("masterEpoch", group.masterEpoch);
            json.put("syncStateSet", new JSONArray(group.syncStateSet));
            json.put("syncStateSetEpoch", group.syncStateSetEpoch);
            JSONArray replicas = new JSONArray();
            for (Map.Entry<Long, ReplicaGroup.Replica> entry : group.replicas.entrySet()) {
                JSONObject replica = new JSONObject();
                replica.put("brokerId", entry.getKey());
                replica.put("address", entry.getValue().address());
                replica.put("haAddress", entry.getValue().haAddress());
                replicas.add(replica);
            }
            json.put("replicas", replicas);
            array.add(json);
        }
        JSONObject root = new JSONObject();
        root.put("groups", array);
        byte[] body = root.toJSONString().getBytes(StandardCharsets.UTF_8);
        byte[] header = (HEADER_PREFIX + String.format("%08x", crc(body)) + "\n").getBytes(StandardCharsets.UTF_8);
        byte[] file = new byte[header.length + body.length];
        System.arraycopy(header, 0, file, 0, header.length);
        System.arraycopy(body, 0, file, header.length, body.length);
        return file;
    }

    /**
     * @throws IllegalArgumentException when the header, the checksum or the JSON is wrong (the message says which)
     */
    static List<ReplicaGroup> decode(byte[] file) {
        int newline = indexOf(file, (byte) '\n');
        String header = newline < 0 ? "" : new String(file, 0, newline, StandardCharsets.UTF_8);
        if (!header.startsWith(HEADER_PREFIX)) {
            throw new IllegalArgumentException("not a controller snapshot (header '" + header + "')");
        }
        byte[] body = new byte[file.length - newline - 1];
        System.arraycopy(file, newline + 1, body, 0, body.length);
        long expected;
        try {
            expected = Long.parseLong(header.substring(HEADER_PREFIX.length()), 16);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("bad checksum in snapshot header '" + header + "'", e);
        }
        if (crc(body) != expected) {
            throw new IllegalArgumentException("snapshot checksum mismatch: the file is damaged");
        }
        try {
            List<ReplicaGroup> groups = new ArrayList<>();
            JSONArray array = JsonObjects.parse(new String(body, StandardCharsets.UTF_8)).getJSONArray("groups");
            for (int i = 0; i < array.size(); i++) {
                JSONObject json = array.getJSONObject(i);
                ReplicaGroup group = new ReplicaGroup(json.getString("clusterName"), json.getString("brokerName"));
                group.nextBrokerId = json.getLongValue("nextBrokerId");
                group.masterBrokerId = json.getLongValue("masterBrokerId");
                group.masterEpoch = json.getIntValue("masterEpoch");
                group.syncStateSetEpoch = json.getIntValue("syncStateSetEpoch");
                JSONArray set = json.getJSONArray("syncStateSet");
                for (int j = 0; j < set.size(); j++) {
                    group.syncStateSet.add(set.getLongValue(j));
                }
                JSONArray replicas = json.getJSONArray("replicas");
                for (int j = 0; j < replicas.size(); j++) {
                    JSONObject replica = replicas.getJSONObject(j);
                    group.replicas.put(replica.getLongValue("brokerId"), new ReplicaGroup.Replica(
                            replica.getString("address"), replica.getString("haAddress")));
                }
                groups.add(group);
            }
            return groups;
        } catch (JSONException | NullPointerException e) {
            throw new IllegalArgumentException("bad snapshot content: " + e.getMessage(), e);
        }
    }

    private static long crc(byte[] body) {
        CRC32C crc = new CRC32C();
        crc.update(body);
        return crc.getValue();
    }

    private static int indexOf(byte[] bytes, byte value) {
        for (int i = 0; i < bytes.length; i++) {
            if (bytes[i] == value) {
                return i;
            }
        }
        return -1;
    }
}
