package org.metaroce.mrct.cli;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/**
 * {@code mrct wireshark install}: copies the MetaRoCE dissector ({@code wireshark/metaroce.lua}, carried in the jar)
 * into Wireshark's personal Lua plugin folder, so that Wireshark and tshark show TVer 1 frames (PLETH, SACKETH, RETH
 * on every WRITE packet, ICRC validity) and the control records of {@code evidence.pcapng}.
 */
@Command(name = "wireshark", mixinStandardHelpOptions = true, sortOptions = false,
    description = {"Wireshark support: `mrct wireshark install` installs the MetaRoCE dissector (metaroce.lua).",
        "Exit status: 0 installed, 2 the folder cannot be written."},
    subcommands = WiresharkCommand.Install.class)
final class WiresharkCommand implements Callable<Integer> {
    /** Where the dissector is in the jar (cli/pom.xml copies wireshark/metaroce.lua there). */
    static final String RESOURCE = "/org/metaroce/mrct/cli/wireshark/metaroce.lua";
    /** The file name in the plugin folder. */
    static final String FILE_NAME = "metaroce.lua";

    @ParentCommand
    private Main main;

    @picocli.CommandLine.Spec
    private picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        throw new picocli.CommandLine.ParameterException(spec.commandLine(), "Missing required subcommand (install)");
    }

    /**
     * Wireshark's personal Lua plugin folder: {@code %APPDATA%\Wireshark\plugins} on Windows,
     * {@code ~/.local/lib/wireshark/plugins} elsewhere (Linux, macOS, BSD).
     */
    static Path personalPluginFolder(final Map<String, String> env, final String osName, final String home) {
        if (osName.toLowerCase(Locale.ROOT).startsWith("windows") && env.get("APPDATA") != null
            && !env.get("APPDATA").isBlank()) {
            return Path.of(env.get("APPDATA"), "Wireshark", "plugins");
        }
        return Path.of(home, ".local", "lib", "wireshark", "plugins");
    }

    /** {@code mrct wireshark install [--dir DIR]}. */
    @Command(name = "install", mixinStandardHelpOptions = true,
        description = {"Copies the MetaRoCE dissector (metaroce.lua) into Wireshark's personal Lua plugin folder "
            + "(~/.local/lib/wireshark/plugins on Linux and macOS, %APPDATA%\\Wireshark\\plugins on Windows) and "
            + "prints where. Wireshark loads it at its next start.",
            "Exit status: 0 installed, 2 the folder cannot be written."})
    static final class Install implements Callable<Integer> {
        @ParentCommand
        private WiresharkCommand parent;

        @Option(names = "--dir", paramLabel = "DIR",
            description = "install into DIR instead of the personal Lua plugin folder")
        private Path dir;

        @Override
        public Integer call() {
            final Main main = parent.main;
            final Path folder = dir != null ? dir : personalPluginFolder(System.getenv(),
                System.getProperty("os.name", ""), System.getProperty("user.home", "."));
            final Path target = folder.resolve(FILE_NAME);
            try (InputStream in = WiresharkCommand.class.getResourceAsStream(RESOURCE)) {
                if (in == null) {
                    main.err().println("mrct wireshark install: this mrct was built without " + FILE_NAME
                        + " (cli/pom.xml copies wireshark/" + FILE_NAME + " into the jar)");
                    return ExitStatus.FAILURE;
                }
                final byte[] script = in.readAllBytes();
                Files.createDirectories(folder);
                final boolean existed = Files.exists(target);
                final Path temporary = Files.createTempFile(folder, "." + FILE_NAME, ".tmp");
                try {
                    Files.write(temporary, script);
                    Files.move(temporary, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
                } finally {
                    Files.deleteIfExists(temporary);
                }
                main.out().println((existed ? "replaced " : "installed ") + target.toAbsolutePath());
                main.out().println("Wireshark and tshark load it when they start (check: tshark -G protocols | "
                    + "grep -i metaroce; in Wireshark: Help > About Wireshark > Plugins).");
                return ExitStatus.OK;
            } catch (IOException e) {
                main.err().println("mrct wireshark install: cannot write " + target + ": " + describe(e));
                return ExitStatus.UNREADABLE;
            }
        }

        private static String describe(final IOException e) {
            if (e instanceof java.nio.file.AccessDeniedException) {
                return "permission denied";
            }
            if (e instanceof java.nio.file.FileSystemException fs && fs.getReason() != null) {
                return fs.getReason();
            }
            return e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
        }
    }
}
