package io.sluice.broker.auth;

import io.sluice.remoting.protocol.RemotingCommand;
import io.sluice.remoting.protocol.RequestSignature;
import io.sluice.remoting.protocol.ResponseCode;
import io.sluice.remoting.transport.ConnectionContext;
import io.sluice.remoting.transport.GateVerdict;
import io.sluice.remoting.transport.RequestGate;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Authentication and authorization of every request, before its handler runs. With authentication on, a request
 * must carry {@code AccessKey} and a {@code Signature} that matches that user's secret ({@link RequestSignature});
 * with authorization on, the user must be a super user or have, for each permission the request needs
 * ({@link AccessTable}), a policy entry that allows it. Of the entries that cover a permission, the one with the
 * narrowest resource decides, a deny beating an allow of the same reach; no entry means deny. A refused request is
 * answered NO_PERMISSION with a remark naming the user, resource and action, and no handler sees it. With
 * {@link AuthenticationStrategy#STATEFUL} a signature a connection has shown for a user stands for that user's later
 * requests on the connection for a while ({@link AuthenticatedConnections}); authorization is checked every time.
 *
 * <p>Runs on the I/O threads; reads the published {@link AuthData} without a lock. Thread-safe.
 */
public final class AccessGate implements RequestGate {

    private static final InetAddress UNSPECIFIED = new InetSocketAddress(0).getAddress();

    private final AuthStore store;
    private final AccessTable table;
    private final boolean authentication;
    private final boolean authorization;
    /** Empty with {@link AuthenticationStrategy#STATELESS}. */
    private final Optional<AuthenticatedConnections> verifiedConnections;
    private final AtomicLong refusedUnauthenticated = new AtomicLong();
    private final AtomicLong signaturesSkipped = new AtomicLong();
    private final AtomicLong refusedUnauthorized = new AtomicLong();

    /**
     * @param store the users and policies
     * @param clusterName the broker's cluster, the resource of cluster-wide requests
     * @param authentication whether requests must be signed by a known user
     * @param authorization whether the user must hold the permissions a request needs; without authentication the
     *                      {@code AccessKey} field is taken at its word, as Apache does
     */
    public AccessGate(AuthStore store, String clusterName, boolean authentication, boolean authorization) {
        this(store, clusterName, authentication, authorization, AuthenticationStrategy.STATELESS, 1, 1);
    }

    /**
     * @param strategy                   when signatures are verified ({@code authenticationStrategy})
     * @param statefulTtlSeconds         with STATEFUL, how long a connection's verified signature counts
     * @param statefulMaxConnections     with STATEFUL, connections remembered at most
     */
    public AccessGate(AuthStore store, String clusterName, boolean authentication, boolean authorization,
                      AuthenticationStrategy strategy, int statefulTtlSeconds, int statefulMaxConnections) {
        this.store = Objects.requireNonNull(store, "store");
        this.table = new AccessTable(clusterName);
        this.authentication = authentication;
        this.authorization = authorization;
        this.verifiedConnections = strategy == AuthenticationStrategy.STATEFUL
                ? Optional.of(new AuthenticatedConnections(statefulTtlSeconds, statefulMaxConnections))
                : Optional.empty();
    }

    @Override
    public GateVerdict check(ConnectionContext connection, RemotingCommand request) {
        return check(sourceAddress(connection.remoteAddress()), connection.id(), request);
    }

    /** The verdict on {@code request} from a client at {@code source}, each request verified on its own. */
    public GateVerdict check(InetAddress source, RemotingCommand request) {
        return check(source, null, request);
    }

    /**
     * The verdict on {@code request} from a client at {@code source} on the connection {@code connectionId} (null:
     * no connection to remember a verified signature for).
     */
    public GateVerdict check(InetAddress source, String connectionId, RemotingCommand request) {
        if (!authentication && !authorization) {
            return GateVerdict.PASS;
        }
        AuthData data = store.data();
        String accessKey = request.extField(RequestSignature.ACCESS_KEY);
        if (accessKey == null) {
            return unauthenticated("request code " + request.code() + " carries no AccessKey: sign requests with"
                    + " the user's access key and secret (AclClientRPCHook)");
        }
        Optional<User> found = data.user(accessKey);
        if (found.isEmpty()) {
            return unauthenticated("no user '" + accessKey + "'");
        }
        User user = found.get();
        if (authentication && isVerifiedAlready(connectionId, user)) {
            signaturesSkipped.incrementAndGet();
        } else if (authentication) {
            String signature = request.extField(RequestSignature.SIGNATURE);
            if (signature == null) {
                return unauthenticated("request code " + request.code() + " from " + user.subject()
                        + " carries no Signature");
            }
            if (!RequestSignature.verify(request, user.password(), signature)) {
                return unauthenticated("the Signature of request code " + request.code() + " does not match "
                        + user.subject() + "'s secret");
            }
            if (connectionId != null && verifiedConnections.isPresent()) {
                verifiedConnections.get().remember(connectionId, user, System.nanoTime());
            }
        }
        if (!authorization || user.type() == UserType.SUPER) {
            return GateVerdict.PASS;
        }
        List<PolicyEntry> policy = data.policy(user.subject());
        for (Access need : table.needs(request)) {
            if (decide(policy, need, source) != Decision.ALLOW) {
                refusedUnauthorized.incrementAndGet();
                return GateVerdict.refuse(ResponseCode.NO_PERMISSION, user.subject() + " has no permission to "
                        + need.actionsText() + " on " + need.resource() + " (request code " + request.code() + ")");
            }
        }
        return GateVerdict.PASS;
    }

    private boolean isVerifiedAlready(String connectionId, User user) {
        return connectionId != null && verifiedConnections.isPresent()
                && verifiedConnections.get().verified(connectionId, user, System.nanoTime());
    }

    /** The decision of the narrowest entry covering {@code need} (deny on a tie); deny when none does. */
    static Decision decide(List<PolicyEntry> policy, Access need, InetAddress source) {
        int best = -1;
        Decision decision = Decision.DENY;
        for (PolicyEntry entry : policy) {
            if (entry.covers(need.resource(), need.actions(), source)) {
                int reach = entry.resource().specificity();
                if (reach > best || reach == best && entry.decision() == Decision.DENY) {
                    best = reach;
                    decision = entry.decision();
                }
            }
        }
        return decision;
    }

    /** Requests refused for a missing or wrong signature or an unknown user. */
    public long refusedUnauthenticated() {
        return refusedUnauthenticated.get();
    }

    /** Requests passed without checking their signature: their connection had shown it (STATEFUL). */
    public long signaturesSkipped() {
        return signaturesSkipped.get();
    }

    /** Requests refused for a permission the user does not hold. */
    public long refusedUnauthorized() {
        return refusedUnauthorized.get();
    }

    private GateVerdict unauthenticated(String why) {
        refusedUnauthenticated.incrementAndGet();
        return GateVerdict.refuse(ResponseCode.NO_PERMISSION, "authentication failed: " + why);
    }

    /** The client's IP; for an address without one (not seen on TCP), the unspecified address 0.0.0.0. */
    private static InetAddress sourceAddress(SocketAddress address) {
        if (address instanceof InetSocketAddress inet && inet.getAddress() != null) {
            return inet.getAddress();
        }
        return UNSPECIFIED;
    }
}
