package io.sluice.broker.handler;

import io.sluice.broker.config.ConfigException;
import io.sluice.broker.config.RuntimeSettings;
import io.sluice.remoting.protocol.RemotingCommand;
import io.sluice.remoting.protocol.ResponseCode;
import io.sluice.remoting.transport.ConnectionContext;
import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import org.agrona.concurrent.EpochClock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * UPDATE_BROKER_CONFIG (25), behind {@code mqadmin updateBrokerConfig}: body = Java-properties text
 * ({@code key=value} lines, UTF-8, as the Apache client sends it). The keys of
 * {@link RuntimeSettings#CHANGEABLE} are validated, persisted and applied; any other key refuses the whole update
 * with INVALID_PARAMETER naming it (unknown, not changeable while running, or an invalid value). SYSTEM_ERROR when
 * the change cannot be persisted (nothing changed).
 *
 * <p>Thread-safe ({@link RuntimeSettings} serialises updates); the broker runs it on its admin executor since the
 * update writes a file.
 */
public final class BrokerConfigHandler {

    private static final Logger LOG = LoggerFactory.getLogger(BrokerConfigHandler.class);

    private final RuntimeSettings runtime;
    private final EpochClock clock;

    /**
     * @param runtime the settings that change at run time
     * @param clock   stamps the change
     */
    public BrokerConfigHandler(RuntimeSettings runtime, EpochClock clock) {
        this.runtime = runtime;
        this.clock = clock;
    }

    /** UPDATE_BROKER_CONFIG (25). */
    public RemotingCommand onUpdateBrokerConfig(ConnectionContext connection, RemotingCommand request) {
        byte[] body = request.body();
        if (body == null || body.length == 0) {
            return RemotingCommand.response(ResponseCode.INVALID_PARAMETER, "no settings to update (empty body)");
        }
        Properties properties = new Properties();
        try {
            properties.load(new StringReader(new String(body, StandardCharsets.UTF_8)));
        } catch (IOException | IllegalArgumentException e) {
            return RemotingCommand.response(ResponseCode.INVALID_PARAMETER, "the settings are not Java-properties"
                    + " text: " + e.getMessage());
        }
        Map<String, String> changes = new LinkedHashMap<>();
        properties.forEach((k, v) -> changes.put(k.toString().trim(), v.toString()));
        try {
            runtime.update(changes, clock.time());
        } catch (ConfigException e) {
            return RemotingCommand.response(ResponseCode.INVALID_PARAMETER, e.getMessage());
        } catch (IOException e) {
            LOG.error("persisting the runtime settings {} failed", changes, e);
            return RemotingCommand.response(ResponseCode.SYSTEM_ERROR, "the settings could not be persisted: " + e);
        }
        LOG.info("settings {} changed at run time by {}", changes, connection.remoteAddressText());
        return RemotingCommand.response(ResponseCode.SUCCESS, null);
    }
}
