package org.metaroce.mrct.cli;

import picocli.CommandLine.IVersionProvider;

/** {@code mrct --version}: the implementation version in the jar's manifest, or "dev" when run from classes. */
public final class Version implements IVersionProvider {
    /** The version string of this build. */
    public static String current() {
        final String version = Main.class.getPackage().getImplementationVersion();
        return version == null || version.isBlank() ? "dev" : version;
    }

    @Override
    public String[] getVersion() {
        return new String[] {"mrct " + current(), "Java " + Runtime.version() + " (" + System.getProperty("java.vendor")
            + ")"};
    }
}
