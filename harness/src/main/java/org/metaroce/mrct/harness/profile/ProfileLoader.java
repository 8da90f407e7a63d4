package org.metaroce.mrct.harness.profile;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.metaroce.mrct.harness.spec.Parameter;
import org.metaroce.mrct.harness.spec.Specification;
import org.metaroce.mrct.harness.yaml.Binder;
import org.metaroce.mrct.harness.yaml.YMap;
import org.metaroce.mrct.harness.yaml.YNode;
import org.metaroce.mrct.harness.yaml.YScalar;
import org.metaroce.mrct.harness.yaml.YamlProblem;
import org.metaroce.mrct.harness.yaml.YamlReader;

/**
 * Reads a DUT profile (YAML):
 * <pre>
 * identity: {vendor: ..., model: ..., firmware: ...}
 * pics: [atomics, legacy-rocev2]
 * parameters: {recv_window: 256, pmtu: 4096}
 * </pre>
 * Unknown PICS items, unknown parameters and values outside a parameter's range are reported together, with lines.
 */
public final class ProfileLoader {
    private ProfileLoader() {
    }

    /** Thrown when a profile has problems; the message lists them all. */
    public static final class ProfileException extends Exception {
        private static final long serialVersionUID = 1L;

        public ProfileException(final List<YamlProblem> problems) {
            super("invalid DUT profile:\n" + problems.stream().map(YamlProblem::toString)
                .collect(Collectors.joining("\n")));
        }
    }

    /** Loads and checks a profile file. */
    public static DeviceProfile load(final Path file, final Specification spec) throws ProfileException {
        final byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (IOException e) {
            throw new ProfileException(List.of(new YamlProblem(file.toString(), 0, "cannot read: " + e.getMessage())));
        }
        return parse(file.getFileName().toString(), new String(bytes, StandardCharsets.UTF_8), sha256(bytes), spec);
    }

    /** Parses and checks profile text. */
    public static DeviceProfile parse(final String name, final String text, final String sha256,
                                      final Specification spec) throws ProfileException {
        final YamlReader.Result yaml = YamlReader.read(name, text);
        if (yaml.root() == null) {
            throw new ProfileException(yaml.problems());
        }
        final Binder b = new Binder();
        final YMap root = b.map(yaml.root(), "a DUT profile");
        String vendor = "unknown";
        String model = "unknown";
        String firmware = "unknown";
        final Set<String> pics = new LinkedHashSet<>();
        final Map<String, Object> parameters = new LinkedHashMap<>();
        if (root != null) {
            b.onlyKeys(root, "a DUT profile", "identity", "pics", "parameters");
            if (root.has("identity")) {
                final YMap identity = b.map(root.get("identity"), "identity");
                if (identity != null) {
                    b.onlyKeys(identity, "identity", "vendor", "model", "firmware");
                    vendor = orDefault(b.optionalString(identity, "vendor", "identity"), vendor);
                    model = orDefault(b.optionalString(identity, "model", "identity"), model);
                    firmware = orDefault(b.optionalString(identity, "firmware", "identity"), firmware);
                }
            }
            for (final String item : b.strings(root.get("pics"), "pics")) {
                if (!spec.picsNames().contains(item)) {
                    b.problem(name, root.keyLine("pics"), "unknown PICS item '" + item + "'; Appendix A lists "
                        + spec.picsNames());
                }
                pics.add(item);
            }
            if (root.has("parameters")) {
                final YMap params = b.map(root.get("parameters"), "parameters");
                if (params != null) {
                    final Map<String, Integer> lines = new LinkedHashMap<>();
                    for (final Map.Entry<String, YNode> entry : params.entries().entrySet()) {
                        final int line = params.keyLine(entry.getKey());
                        if (spec.parameter(entry.getKey()) == null) {
                            b.problem(name, line, "unknown parameter '" + entry.getKey() + "'");
                            continue;
                        }
                        parameters.put(entry.getKey(), value(entry.getValue()));
                        lines.put(entry.getKey(), line);
                    }
                    for (final Map.Entry<String, Object> entry : parameters.entrySet()) {
                        final String problem = spec.parameter(entry.getKey()).check(entry.getValue(),
                            other -> declaredOrDefault(other, parameters, spec));
                        if (problem != null) {
                            b.problem(name, lines.get(entry.getKey()), entry.getKey() + ": " + problem);
                        }
                    }
                }
            }
        }
        final List<YamlProblem> problems = new java.util.ArrayList<>(yaml.problems());
        problems.addAll(b.problems());
        if (!problems.isEmpty()) {
            throw new ProfileException(problems);
        }
        return new DeviceProfile(name, vendor, model, firmware, pics, parameters, sha256);
    }

    private static Object declaredOrDefault(final String name, final Map<String, Object> declared,
                                            final Specification spec) {
        final Object value = declared.get(name);
        if (value != null) {
            return value;
        }
        return spec.parameter(name) == null ? null : spec.parameter(name).defaultValue();
    }

    private static Object value(final YNode node) {
        if (node instanceof YScalar scalar) {
            if (scalar.value() instanceof Number number) {
                return number instanceof Double d ? d : (Object) number.longValue();
            }
            return Parameter.parseValue(scalar.text());
        }
        return node.kind();
    }

    private static String orDefault(final String value, final String fallback) {
        return value == null ? fallback : value;
    }

    /** SHA-256 of bytes as hex. */
    public static String sha256(final byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JDK", e);
        }
    }
}
