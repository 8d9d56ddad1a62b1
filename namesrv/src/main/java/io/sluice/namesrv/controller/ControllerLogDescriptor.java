package io.sluice.namesrv.controller;

import io.sluice.remoting.protocol.body.JsonObjects;
import com.alibaba.fastjson2.JSONArray;
import com.alibaba.fastjson2.JSONException;
import com.alibaba.fastjson2.JSONObject;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.TreeSet;

/**
 * The layout of a controller command in the Raft log, and of the result a leader gets back once it is applied.
 * Both are one UTF-8 JSON object:
 *
 * <pre>
 * log entry (the state machine's log data):
 *   {"type":"REGISTER", "clusterName":s, "brokerName":s, "address":"host:port", "haAddress":"host:port"}
 *   {"type":"ELECT", "brokerName":s, "expectedMasterEpoch":int, "newMasterBrokerId":long}
 *   {"type":"ALTER_SYNC_STATE_SET", "brokerName":s, "masterBrokerId":long, "masterEpoch":int,
 *    "syncStateSetEpoch":int, "syncStateSet":[long, ...]}
 *
 * apply result (the reply message):
 *   {"code":int, "value":long, "remark":s}      code 0 = applied; value = broker id / new epoch
 * </pre>
 *
 * An entry that does not parse is applied as a refusal (CONTROLLER_INVALID_REQUEST): every controller refuses it
 * the same way, so the tables stay equal.
 *
 * <p>Stateless; thread-safe.
 */
final class ControllerLogDescriptor {

    static final String TYPE = "type";
    static final String REGISTER = "REGISTER";
    static final String ELECT = "ELECT";
    static final String ALTER_SYNC_STATE_SET = "ALTER_SYNC_STATE_SET";

    private ControllerLogDescriptor() {
    }

    static byte[] encode(ControllerCommand command) {
        JSONObject json = new JSONObject();
        if (command instanceof ControllerCommand.Register r) {
            json.put(TYPE, REGISTER);
            json.put("clusterName", r.clusterName());
            json.put("brokerName", r.brokerName());
            json.put("address", r.address());
            json.put("haAddress", r.haAddress());
        } else if (command instanceof ControllerCommand.Elect e) {
            json.put(TYPE, ELECT);
            json.put("brokerName", e.brokerName());
            json.put("expectedMasterEpoch", e.expectedMasterEpoch());
            json.put("newMasterBrokerId", e.newMasterBrokerId());
        } else if (command instanceof ControllerCommand.AlterSyncStateSet a) {
            json.put(TYPE, ALTER_SYNC_STATE_SET);
            json.put("brokerName", a.brokerName());
            json.put("masterBrokerId", a.masterBrokerId());
            json.put("masterEpoch", a.masterEpoch());
            json.put("syncStateSetEpoch", a.syncStateSetEpoch());
            json.put("syncStateSet", new JSONArray(new TreeSet<>(a.syncStateSet())));
        }
        return json.toJSONString().getBytes(StandardCharsets.UTF_8);
    }

    /**
     * @throws IllegalArgumentException naming what is wrong when the bytes are not a command
     */
    static ControllerCommand decode(byte[] bytes) {
        JSONObject json;
        try {
            json = JsonObjects.parse(new String(bytes, StandardCharsets.UTF_8));
        } catch (JSONException e) {
            throw new IllegalArgumentException("not a JSON command: " + e.getMessage(), e);
        }
        if (json == null) {
            throw new IllegalArgumentException("empty command");
        }
        String type = json.getString(TYPE);
        try {
            return switch (type == null ? "" : type) {
                case REGISTER -> new ControllerCommand.Register(text(json, "clusterName"), text(json, "brokerName"),
                        text(json, "address"), text(json, "haAddress"));
                case ELECT -> new ControllerCommand.Elect(text(json, "brokerName"),
                        json.getIntValue("expectedMasterEpoch"), json.getLongValue("newMasterBrokerId"));
                case ALTER_SYNC_STATE_SET -> {
                    Set<Long> set = new TreeSet<>();
                    JSONArray array = json.getJSONArray("syncStateSet");
                    if (array == null) {
                        throw new IllegalArgumentException("syncStateSet missing");
                    }
                    for (int i = 0; i < array.size(); i++) {
                        set.add(array.getLongValue(i));
                    }
                    yield new ControllerCommand.AlterSyncStateSet(text(json, "brokerName"),
                            json.getLongValue("masterBrokerId"), json.getIntValue("masterEpoch"),
                            json.getIntValue("syncStateSetEpoch"), set);
                }
                default -> throw new IllegalArgumentException("unknown command type '" + type + "'");
            };
        } catch (JSONException | NumberFormatException e) {
            throw new IllegalArgumentException("bad " + type + " command: " + e.getMessage(), e);
        }
    }

    static byte[] encodeResult(ApplyResult result) {
        JSONObject json = new JSONObject();
        json.put("code", result.code());
        json.put("value", result.value());
        json.put("remark", result.remark());
        return json.toJSONString().getBytes(StandardCharsets.UTF_8);
    }

    static ApplyResult decodeResult(byte[] bytes) {
        JSONObject json = JsonObjects.parse(new String(bytes, StandardCharsets.UTF_8));
        return new ApplyResult(json.getIntValue("code"), json.getLongValue("value"), json.getString("remark"));
    }

    private static String text(JSONObject json, String field) {
        String value = json.getString(field);
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException(field + " missing");
        }
        return value;
    }
}
