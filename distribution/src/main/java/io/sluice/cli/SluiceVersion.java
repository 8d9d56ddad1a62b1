package io.sluice.cli;

import picocli.CommandLine.IVersionProvider;

/** The version printed by {@code sluice --version}: the jar manifest's implementation version. Stateless. */
final class SluiceVersion implements IVersionProvider {

    @Override
    public String[] getVersion() {
        String version = SluiceVersion.class.getPackage().getImplementationVersion();
        return new String[] {"sluice " + (version == null ? "(development build)" : version)};
    }
}
