package io.sluice.broker.ha;

import com.alibaba.fastjson2.JSONArray;
import com.alibaba.fastjson2.JSONObject;
import io.sluice.remoting.protocol.controller.ControllerWireDescriptor;
import io.sluice.remoting.protocol.controller.ReplicaInfo;
import io.sluice.remoting.protocol.RemotingCommand;
import io.sluice.remoting.protocol.ResponseCode;
import io.sluice.remoting.transport.RemotingClient;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A broker's calls in controller mode ({@link ControllerWireDescriptor}): heartbeats and in-sync set changes to the
 * controller leader, found by trying each of {@code controllerAddr} in turn (the last one that answered first);
 * and the body a broker answers GET_BROKER_EPOCH_CACHE with (its epoch history and log end).
 *
 * <p>Not thread-safe: used by the role agent thread only.
 */
public final class ControllerClient {

    private final RemotingClient client;
    private final List<String> controllers;
    private final long timeoutMs;
    private int leaderIndex;

    /**
     * @param controllers {@code controllerAddr}, at least one {@code host:port}
     * @param timeoutMs   timeout of one call
     */
    public ControllerClient(RemotingClient client, List<String> controllers, long timeoutMs) {
        if (controllers.isEmpty()) {
            throw new IllegalArgumentException("controllerAddr names no controller");
        }
        this.client = client;
        this.controllers = List.copyOf(controllers);
        this.timeoutMs = timeoutMs;
    }

    /** What a heartbeat says about this broker. */
    public record Heartbeat(String clusterName, String brokerName, String brokerAddr, String haServerAddr,
                            long logEndPosition, long timeoutMs) {
    }

    /**
     * Sends a heartbeat (which also registers this broker) and returns the group as the leader sees it.
     *
     * @throws ControllerException when no controller leads or answers
     */
    public ReplicaInfo heartbeat(Heartbeat heartbeat) throws ControllerException {
        RemotingCommand request = RemotingCommand.request(ControllerWireDescriptor.BROKER_HEARTBEAT)
                .putExtField(ControllerWireDescriptor.CLUSTER_NAME, heartbeat.clusterName())
                .putExtField(ControllerWireDescriptor.BROKER_NAME, heartbeat.brokerName())
                .putExtField(ControllerWireDescriptor.BROKER_ADDR, heartbeat.brokerAddr())
                .putExtField(ControllerWireDescriptor.HA_SERVER_ADDR, heartbeat.haServerAddr())
                .putExtField(ControllerWireDescriptor.LOG_END_POSITION, heartbeat.logEndPosition())
                .putExtField(ControllerWireDescriptor.HEARTBEAT_TIMEOUT_MILLIS, heartbeat.timeoutMs());
        RemotingCommand response = callLeader(request);
        if (response.body() == null) {
            throw new ControllerException("the controller's heartbeat answer has no body");
        }
        try {
            return ControllerWireDescriptor.decodeReplicaInfo(response.body());
        } catch (IllegalArgumentException e) {
            throw new ControllerException(e.getMessage());
        }
    }

    /**
     * Asks the controller to make {@code syncStateSet} the group's in-sync set.
     *
     * @return the new in-sync set epoch
     * @throws ControllerException when refused (stale epoch, no leader); the message carries the reason
     */
    public int alterSyncStateSet(String brokerName, long masterBrokerId, int masterEpoch, int syncStateSetEpoch,
                                 Set<Long> syncStateSet) throws ControllerException {
        RemotingCommand request = RemotingCommand.request(ControllerWireDescriptor.CONTROLLER_ALTER_SYNC_STATE_SET)
                .putExtField(ControllerWireDescriptor.BROKER_NAME, brokerName)
                .putExtField(ControllerWireDescriptor.MASTER_BROKER_ID, masterBrokerId)
                .putExtField(ControllerWireDescriptor.MASTER_EPOCH, masterEpoch)
                .putExtField(ControllerWireDescriptor.SYNC_STATE_SET_EPOCH, syncStateSetEpoch)
                .setBody(ControllerWireDescriptor.encodeSyncStateSet(syncStateSet));
        RemotingCommand response = callLeader(request);
        return (int) response.requireLong(ControllerWireDescriptor.NEW_SYNC_STATE_SET_EPOCH);
    }

    /** The GET_BROKER_EPOCH_CACHE answer body for {@code epochs} and {@code logEndPosition}. */
    public static byte[] encodeEpochCache(List<EpochEntry> epochs, long logEndPosition) {
        JSONArray array = new JSONArray();
        for (EpochEntry entry : epochs) {
            JSONObject json = new JSONObject();
            json.put("epoch", entry.epoch());
            json.put("startPosition", entry.startPosition());
            array.add(json);
        }
        JSONObject json = new JSONObject();
        json.put("epochs", array);
        json.put("logEndPosition", logEndPosition);
        return json.toJSONString().getBytes(StandardCharsets.UTF_8);
    }

    private RemotingCommand callLeader(RemotingCommand request) throws ControllerException {
        StringBuilder failures = new StringBuilder();
        for (int attempt = 0; attempt < controllers.size(); attempt++) {
            int index = (leaderIndex + attempt) % controllers.size();
            String address = controllers.get(index);
            RemotingCommand response;
            try {
                response = call(address, request);
            } catch (ControllerException e) {
                failures.append(e.getMessage()).append("; ");
                continue;
            }
            if (response.code() == ControllerWireDescriptor.CONTROLLER_NOT_LEADER) {
                failures.append(address).append(": ").append(response.remark()).append("; ");
                continue;
            }
            leaderIndex = index;
            if (response.code() != ResponseCode.SUCCESS) {
                throw new ControllerException("controller " + address + " refused: " + response.code() + " "
                        + response.remark());
            }
            return response;
        }
        throw new ControllerException("no controller leader answered: " + failures);
    }

    private RemotingCommand call(String address, RemotingCommand request) throws ControllerException {
        try {
            return client.invoke(address, request, timeoutMs).get(timeoutMs + 1_000, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ControllerException(address + ": interrupted");
        } catch (ExecutionException | TimeoutException e) {
            throw new ControllerException(address + ": " + e);
        }
    }

    /** A controller call that gave no usable answer. */
    public static final class ControllerException extends Exception {
        private static final long serialVersionUID = 1L;

        ControllerException(String message) {
            super(message);
        }
    }
}
