package io.sluice.namesrv.route;

import io.sluice.remoting.protocol.body.DataVersion;
import java.util.Optional;

/**
 * Answer to QUERY_DATA_VERSION: whether the broker's topic table version differs from the stored one.
 *
 * @param changed true when the broker should register again (no stored version, or a different one)
 * @param stored the version stored for the broker address, if it is registered
 */
public record DataVersionCheck(boolean changed, Optional<DataVersion> stored) {
}
