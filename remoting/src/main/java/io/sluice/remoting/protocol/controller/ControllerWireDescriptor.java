package io.sluice.remoting.protocol.controller;

import io.sluice.remoting.protocol.body.JsonObjects;
import com.alibaba.fastjson2.JSONArray;
import com.alibaba.fastjson2.JSONException;
import com.alibaba.fastjson2.JSONObject;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * The controller's requests on the remoting protocol (Apache's request and response codes; Sluice's own fields),
 * between a broker in controller mode and the controller leader, and a broker's epoch query to its master.
 *
 * <pre>
 * BROKER_HEARTBEAT (904), broker -> controller, every brokerHeartbeatInterval; also registers the broker
 *   ext: clusterName, brokerName, brokerAddr (host:port), haServerAddr (host:port),
 *        logEndPosition (long, end of its CommitLog), heartbeatTimeoutMillis (long)
 *   answer SUCCESS, body = replica info (below), brokerId = the sender's id
 *
 * CONTROLLER_GET_REPLICA_INFO (1004), anyone -> controller
 *   ext: brokerName               answer SUCCESS, body = replica info, brokerId -1
 *
 * CONTROLLER_ALTER_SYNC_STATE_SET (1001), master -> controller
 *   ext: brokerName, masterBrokerId, masterEpoch, syncStateSetEpoch; body {"syncStateSet":[long, ...]}
 *   answer SUCCESS, ext newSyncStateSetEpoch; or a CONTROLLER_* refusal code with a remark
 *
 * replica info body (UTF-8 JSON):
 *   {"brokerId":long, "masterBrokerId":long, "masterAddress":s, "masterHaAddress":s, "masterEpoch":int,
 *    "syncStateSet":[long, ...], "syncStateSetEpoch":int,
 *    "replicas":[{"brokerId":long, "address":s, "alive":bool, "logEndPosition":long}, ...]}
 *
 * GET_BROKER_EPOCH_CACHE (1007), slave -> its master's client port, before it follows
 *   answer SUCCESS, body {"epochs":[{"epoch":int, "startPosition":long}, ...], "logEndPosition":long}
 * </pre>
 *
 * Every controller answers CONTROLLER_NOT_LEADER (2007) while it is not the Raft leader; the broker then asks the
 * next address of its {@code controllerAddr}.
 *
 * <p>Stateless; thread-safe.
 */
public final class ControllerWireDescriptor {

    public static final int BROKER_HEARTBEAT = 904;
    public static final int CONTROLLER_ALTER_SYNC_STATE_SET = 1001;
    public static final int CONTROLLER_GET_REPLICA_INFO = 1004;
    public static final int GET_BROKER_EPOCH_CACHE = 1007;

    public static final int CONTROLLER_FENCED_MASTER_EPOCH = 2000;
    public static final int CONTROLLER_FENCED_SYNC_STATE_SET_EPOCH = 2001;
    public static final int CONTROLLER_INVALID_MASTER = 2002;
    public static final int CONTROLLER_INVALID_REPLICAS = 2003;
    public static final int CONTROLLER_INVALID_REQUEST = 2005;
    public static final int CONTROLLER_NOT_LEADER = 2007;
    public static final int CONTROLLER_ELECT_MASTER_FAILED = 2012;

    public static final String CLUSTER_NAME = "clusterName";
    public static final String BROKER_NAME = "brokerName";
    public static final String BROKER_ADDR = "brokerAddr";
    public static final String HA_SERVER_ADDR = "haServerAddr";
    public static final String LOG_END_POSITION = "logEndPosition";
    public static final String HEARTBEAT_TIMEOUT_MILLIS = "heartbeatTimeoutMillis";
    public static final String MASTER_BROKER_ID = "masterBrokerId";
    public static final String MASTER_EPOCH = "masterEpoch";
    public static final String SYNC_STATE_SET_EPOCH = "syncStateSetEpoch";
    public static final String NEW_SYNC_STATE_SET_EPOCH = "newSyncStateSetEpoch";

    private ControllerWireDescriptor() {
    }

    /** The replica info body. */
    public static byte[] encodeReplicaInfo(ReplicaInfo info) {
        JSONObject json = new JSONObject();
        json.put("brokerId", info.brokerId());
        json.put("masterBrokerId", info.masterBrokerId());
        json.put("masterAddress", info.masterAddress());
        json.put("masterHaAddress", info.masterHaAddress());
        json.put("masterEpoch", info.masterEpoch());
        json.put("syncStateSet", new JSONArray(new TreeSet<>(info.syncStateSet())));
        json.put("syncStateSetEpoch", info.syncStateSetEpoch());
        JSONArray replicas = new JSONArray();
        for (ReplicaInfo.ReplicaStatus status : info.replicas()) {
            JSONObject replica = new JSONObject();
            replica.put("brokerId", status.brokerId());
            replica.put("address", status.address());
            replica.put("alive", status.alive());
            replica.put("logEndPosition", status.logEndPosition());
            replicas.add(replica);
        }
        json.put("replicas", replicas);
        return json.toJSONString().getBytes(StandardCharsets.UTF_8);
    }

    /**
     * @throws IllegalArgumentException when the body is not a replica info
     */
    public static ReplicaInfo decodeReplicaInfo(byte[] body) {
        try {
            JSONObject json = JsonObjects.parse(new String(body, StandardCharsets.UTF_8));
            List<ReplicaInfo.ReplicaStatus> replicas = new ArrayList<>();
            JSONArray array = json.getJSONArray("replicas");
            for (int i = 0; i < array.size(); i++) {
                JSONObject replica = array.getJSONObject(i);
                replicas.add(new ReplicaInfo.ReplicaStatus(replica.getLongValue("brokerId"),
                        replica.getString("address"), replica.getBooleanValue("alive"),
                        replica.getLongValue("logEndPosition")));
            }
            return new ReplicaInfo(json.getLongValue("brokerId"), json.getLongValue("masterBrokerId"),
                    json.getString("masterAddress"), json.getString("masterHaAddress"),
                    json.getIntValue("masterEpoch"), longSet(json.getJSONArray("syncStateSet")),
                    json.getIntValue("syncStateSetEpoch"), Collections.unmodifiableList(replicas));
        } catch (JSONException | NullPointerException | NumberFormatException e) {
            throw new IllegalArgumentException("not a replica info body: " + e.getMessage(), e);
        }
    }

    /** The AlterSyncStateSet body. */
    public static byte[] encodeSyncStateSet(Set<Long> syncStateSet) {
        JSONObject json = new JSONObject();
        json.put("syncStateSet", new JSONArray(new TreeSet<>(syncStateSet)));
        return json.toJSONString().getBytes(StandardCharsets.UTF_8);
    }

    /**
     * @throws IllegalArgumentException when the body is not an in-sync set
     */
    public static Set<Long> decodeSyncStateSet(byte[] body) {
        try {
            return longSet(JsonObjects.parse(new String(body, StandardCharsets.UTF_8)).getJSONArray("syncStateSet"));
        } catch (JSONException | NullPointerException | NumberFormatException e) {
            throw new IllegalArgumentException("not an in-sync set body: " + e.getMessage(), e);
        }
    }

    private static Set<Long> longSet(JSONArray array) {
        Set<Long> set = new TreeSet<>();
        for (int i = 0; i < array.size(); i++) {
            set.add(array.getLongValue(i));
        }
        return Collections.unmodifiableSet(set);
    }
}
