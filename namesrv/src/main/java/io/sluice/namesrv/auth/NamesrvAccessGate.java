package io.sluice.namesrv.auth;

import io.sluice.remoting.protocol.RemotingCommand;
import io.sluice.remoting.protocol.RequestCode;
import io.sluice.remoting.protocol.RequestSignature;
import io.sluice.remoting.protocol.ResponseCode;
import io.sluice.remoting.transport.ConnectionContext;
import io.sluice.remoting.transport.GateVerdict;
import io.sluice.remoting.transport.RequestGate;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The name server's authentication: the reads the Apache client makes without credentials (routes, cluster info,
 * topic lists, a KV value) stay open, as in RocketMQ; every other request (broker registration and heartbeats,
 * topic deletion, KV and configuration changes, controller requests, unknown codes) must carry the
 * {@code AccessKey} of a known user and a {@code Signature} made with its secret ({@link RequestSignature}), else
 * it is answered NO_PERMISSION with a remark saying why, and no handler sees it.
 *
 * <p>Runs on the I/O threads; its state is immutable but for the counter. Thread-safe.
 */
public final class NamesrvAccessGate implements RequestGate {

    /** Reads an unsigned Apache client makes; everything else changes state or is the brokers' own traffic. */
    static final Set<Integer> OPEN_CODES = Set.of(RequestCode.GET_ROUTEINFO_BY_TOPIC,
            RequestCode.GET_BROKER_CLUSTER_INFO, RequestCode.GET_ALL_TOPIC_LIST_FROM_NAMESERVER,
            RequestCode.GET_TOPICS_BY_CLUSTER, RequestCode.GET_KV_CONFIG);

    private final Map<String, String> secrets;
    private final AtomicLong refused = new AtomicLong();

    /**
     * @param authentication the name server's users; must be enabled
     */
    public NamesrvAccessGate(NamesrvAuthentication authentication) {
        if (!authentication.enabled()) {
            throw new IllegalArgumentException("the access gate is for a name server with authenticationEnabled");
        }
        this.secrets = Map.copyOf(authentication.secretsByAccessKey());
    }

    @Override
    public GateVerdict check(ConnectionContext connection, RemotingCommand request) {
        return check(request);
    }

    /** The verdict on {@code request}. */
    public GateVerdict check(RemotingCommand request) {
        if (OPEN_CODES.contains(request.code())) {
            return GateVerdict.PASS;
        }
        String accessKey = request.extField(RequestSignature.ACCESS_KEY);
        if (accessKey == null) {
            return refuse("request code " + request.code() + " carries no AccessKey: the name server has"
                    + " authenticationEnabled; sign it (AclClientRPCHook, or the broker's"
                    + " innerClientAuthenticationCredentials)");
        }
        String secret = secrets.get(accessKey);
        if (secret == null) {
            return refuse("no user '" + accessKey + "' on this name server (request code " + request.code() + ")");
        }
        String signature = request.extField(RequestSignature.SIGNATURE);
        if (signature == null) {
            return refuse("request code " + request.code() + " from " + accessKey + " carries no Signature");
        }
        if (!RequestSignature.verify(request, secret, signature)) {
            return refuse("the Signature of request code " + request.code() + " does not match " + accessKey
                    + "'s secret");
        }
        return GateVerdict.PASS;
    }

    /** Requests refused so far. */
    public long refused() {
        return refused.get();
    }

    private GateVerdict refuse(String why) {
        refused.incrementAndGet();
        return GateVerdict.refuse(ResponseCode.NO_PERMISSION, "authentication failed: " + why);
    }
}
