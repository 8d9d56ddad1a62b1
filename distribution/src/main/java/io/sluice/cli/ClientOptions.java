package io.sluice.cli;

import io.sluice.client.ConnectionSettings;
import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;

/**
 * Options shared by the client commands (admin, produce, consume): where the name servers are. The default comes
 * from the {@code SLUICE_NAMESRV} environment variable, else {@code 127.0.0.1:9876}. The options are inherited by
 * subcommands, so {@code admin -n X topic list} and {@code admin topic list -n X} mean the same. Not thread-safe.
 */
final class ClientOptions {

    @Option(names = {"-n", "--namesrv"}, scope = ScopeType.INHERIT, paramLabel = "HOST:PORT[;HOST:PORT]",
            defaultValue = "${env:SLUICE_NAMESRV:-127.0.0.1:9876}",
            description = "name servers (default: $SLUICE_NAMESRV, else 127.0.0.1:9876)")
    String namesrv;

    @Option(names = "--rpc-timeout-ms", scope = ScopeType.INHERIT, paramLabel = "MS", defaultValue = "5000",
            description = "timeout of one name-server or admin call (default: ${DEFAULT-VALUE})")
    long rpcTimeoutMs;

    /** Connection settings for these name servers, reporting 127.0.0.1 as client IP when they are local. */
    ConnectionSettings connection() {
        ConnectionSettings settings = ConnectionSettings.of(namesrv).withRpcTimeoutMs(rpcTimeoutMs);
        return namesrv.startsWith("127.") || namesrv.startsWith("localhost") ? settings.withClientIp("127.0.0.1")
                : settings;
    }
}
