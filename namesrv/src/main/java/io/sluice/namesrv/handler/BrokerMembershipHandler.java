package io.sluice.namesrv.handler;

import io.sluice.namesrv.route.BrokerRegistration;
import io.sluice.namesrv.route.DataVersionCheck;
import io.sluice.namesrv.route.KvConfigTable;
import io.sluice.namesrv.route.RegisterResult;
import io.sluice.namesrv.route.RouteTable;
import io.sluice.remoting.protocol.RemotingCommand;
import io.sluice.remoting.protocol.RequestCode;
import io.sluice.remoting.protocol.body.BodyCodec;
import io.sluice.remoting.protocol.body.BodyFormatException;
import io.sluice.remoting.protocol.body.DataVersion;
import io.sluice.remoting.protocol.body.RegisterBrokerBody;
import io.sluice.remoting.protocol.controller.ControllerWireDescriptor;
import io.sluice.remoting.transport.ConnectionContext;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Requests brokers send about themselves (docs/wire-protocol.md#broker-registration,
 * docs/wire-protocol.md#name-server): REGISTER_BROKER (103), UNREGISTER_BROKER (104), QUERY_DATA_VERSION (322) and
 * BROKER_HEARTBEAT (904). A registration is tied to the connection it arrived on: when that connection closes, the
 * owner removes the broker ({@link RouteTable#removeConnection}).
 */
public final class BrokerMembershipHandler implements NamesrvHandler {

    private static final Set<Integer> CODES = Set.of(RequestCode.REGISTER_BROKER, RequestCode.UNREGISTER_BROKER,
            RequestCode.QUERY_DATA_VERSION, RequestCode.BROKER_HEARTBEAT);

    private final RouteTable routes;
    private final KvConfigTable kvConfig;

    /**
     * Creates the handler.
     *
     * @param routes the route table to update
     * @param kvConfig the KV configuration, whose ordered-topic namespace is returned to registering brokers
     */
    public BrokerMembershipHandler(RouteTable routes, KvConfigTable kvConfig) {
        this.routes = Objects.requireNonNull(routes, "routes");
        this.kvConfig = Objects.requireNonNull(kvConfig, "kvConfig");
    }

    @Override
    public Set<Integer> codes() {
        return CODES;
    }

    @Override
    public RemotingCommand handle(ConnectionContext connection, RemotingCommand request) {
        return switch (request.code()) {
            case RequestCode.REGISTER_BROKER -> register(connection, request);
            case RequestCode.UNREGISTER_BROKER -> unregister(request);
            case RequestCode.QUERY_DATA_VERSION -> queryDataVersion(request);
            case RequestCode.BROKER_HEARTBEAT -> heartbeat(request);
            default -> throw new IllegalArgumentException("request code " + request.code() + " is not handled by "
                    + getClass().getSimpleName());
        };
    }

    private RemotingCommand register(ConnectionContext connection, RemotingCommand request) {
        String brokerName = request.requireString("brokerName");
        String brokerAddr = request.requireString("brokerAddr");
        String clusterName = request.requireString("clusterName");
        String haServerAddr = request.requireString("haServerAddr");
        long brokerId = request.requireLong("brokerId");
        long heartbeatTimeoutMs = request.optionalLong("heartbeatTimeoutMillis", 0);
        boolean enableActingMaster = request.optionalBoolean("enableActingMaster", false);
        // Sluice's field, sent by brokers in controller mode (Apache's name server ignores it).
        int masterEpoch = request.optionalInt(ControllerWireDescriptor.MASTER_EPOCH, 0);
        boolean compressed = request.optionalBoolean("compressed", false);
        int bodyCrc32 = request.optionalInt("bodyCrc32", 0);
        byte[] body = request.body();

        if (bodyCrc32 != 0 && bodyCrc32 != RegisterBrokerBody.crc32(body)) {
            return Responses.systemError(request, "crc32 not match");
        }
        if (compressed) {
            return Responses.systemError(request, "compressed REGISTER_BROKER bodies are not supported");
        }
        RegisterBrokerBody registerBody;
        try {
            registerBody = body == null ? new RegisterBrokerBody(null, null)
                    : BodyCodec.decode(body, RegisterBrokerBody.class);
        } catch (BodyFormatException e) {
            return Responses.systemError(request, e.getMessage());
        }
        BrokerRegistration registration;
        try {
            registration = new BrokerRegistration(clusterName, brokerAddr, brokerName, brokerId, haServerAddr,
                    heartbeatTimeoutMs, enableActingMaster, masterEpoch, registerBody.topicConfigSerializeWrapper(),
                    registerBody.filterServerList(), connection);
        } catch (IllegalArgumentException e) {
            return Responses.systemError(request, e.getMessage());
        }
        RegisterResult result = routes.register(registration);
        if (result.status() == RegisterResult.Status.REJECTED_STALE_MASTER_EPOCH) {
            return Responses.error(request, ControllerWireDescriptor.CONTROLLER_FENCED_MASTER_EPOCH,
                    "master epoch " + masterEpoch + " of " + brokerName + " at " + brokerAddr
                            + " is stale: this name server accepted a master of epoch " + result.knownMasterEpoch());
        }
        if (!result.accepted()) {
            return Responses.systemError(request, "register broker failed");
        }
        RemotingCommand response = Responses.success(request).setExtFields(Map.of());
        result.master().ifPresent(master -> response.putExtField("masterAddr", master.masterAddr())
                .putExtField("haServerAddr", master.haServerAddr()));
        kvConfig.namespace(KvConfigTable.ORDER_TOPIC_CONFIG)
                .ifPresent(table -> response.setBody(BodyCodec.encode(table)));
        return response;
    }

    private RemotingCommand unregister(RemotingCommand request) {
        String brokerName = request.requireString("brokerName");
        String brokerAddr = request.requireString("brokerAddr");
        String clusterName = request.requireString("clusterName");
        long brokerId = request.requireLong("brokerId");
        routes.unregister(clusterName, brokerAddr, brokerName, brokerId);
        return Responses.success(request);
    }

    private RemotingCommand queryDataVersion(RemotingCommand request) {
        request.requireString("brokerName");
        String brokerAddr = request.requireString("brokerAddr");
        String clusterName = request.requireString("clusterName");
        request.requireLong("brokerId");
        byte[] body = request.body();
        if (body == null) {
            return Responses.systemError(request, "QUERY_DATA_VERSION needs a DataVersion body");
        }
        DataVersion version;
        try {
            version = BodyCodec.decode(body, DataVersion.class);
        } catch (BodyFormatException e) {
            return Responses.systemError(request, e.getMessage());
        }
        DataVersionCheck check = routes.checkDataVersion(clusterName, brokerAddr, version);
        RemotingCommand response = Responses.success(request).putExtField("changed", check.changed());
        check.stored().ifPresent(stored -> response.setBody(BodyCodec.encode(stored)));
        return response;
    }

    private RemotingCommand heartbeat(RemotingCommand request) {
        String clusterName = request.requireString("clusterName");
        String brokerAddr = request.requireString("brokerAddr");
        routes.refresh(clusterName, brokerAddr);
        return Responses.success(request);
    }
}
