package io.sluice.namesrv.handler;

import io.sluice.namesrv.route.KvConfigTable;
import io.sluice.remoting.protocol.RemotingCommand;
import io.sluice.remoting.protocol.RequestCode;
import io.sluice.remoting.protocol.ResponseCode;
import io.sluice.remoting.transport.ConnectionContext;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Key-value configuration (docs/wire-protocol.md#name-server): PUT_KV_CONFIG (100, header {@code namespace},
 * {@code key}, {@code value}), GET_KV_CONFIG (101, answers header {@code value} or QUERY_NOT_FOUND) and
 * DELETE_KV_CONFIG (102, always SUCCESS).
 */
public final class KvConfigHandler implements NamesrvHandler {

    private static final Set<Integer> CODES = Set.of(RequestCode.PUT_KV_CONFIG, RequestCode.GET_KV_CONFIG,
            RequestCode.DELETE_KV_CONFIG);

    private final KvConfigTable table;

    /**
     * Creates the handler.
     *
     * @param table the configuration to read and update
     */
    public KvConfigHandler(KvConfigTable table) {
        this.table = Objects.requireNonNull(table, "table");
    }

    @Override
    public Set<Integer> codes() {
        return CODES;
    }

    @Override
    public RemotingCommand handle(ConnectionContext connection, RemotingCommand request) {
        String namespace = request.requireString("namespace");
        String key = request.requireString("key");
        return switch (request.code()) {
            case RequestCode.PUT_KV_CONFIG -> put(request, namespace, key);
            case RequestCode.GET_KV_CONFIG -> get(request, namespace, key);
            case RequestCode.DELETE_KV_CONFIG -> {
                table.delete(namespace, key);
                yield Responses.success(request);
            }
            default -> throw new IllegalArgumentException("request code " + request.code() + " is not handled by "
                    + getClass().getSimpleName());
        };
    }

    private RemotingCommand put(RemotingCommand request, String namespace, String key) {
        String value = request.requireString("value");
        try {
            table.put(namespace, key, value);
        } catch (IllegalArgumentException e) {
            return Responses.systemError(request, e.getMessage());
        }
        return Responses.success(request);
    }

    private RemotingCommand get(RemotingCommand request, String namespace, String key) {
        Optional<String> value = table.get(namespace, key);
        if (value.isEmpty()) {
            return Responses.error(request, ResponseCode.QUERY_NOT_FOUND,
                    "No config item, Namespace: " + namespace + " Key: " + key);
        }
        return Responses.success(request).putExtField("value", value.get());
    }
}
