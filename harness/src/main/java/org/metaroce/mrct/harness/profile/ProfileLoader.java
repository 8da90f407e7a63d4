package org.metaroce.mrct.harness.profile;

import java.io.IOException;
import java.math.BigInteger;
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
 * Every parameter of Table B-1 must be declared (rule MR-CONF-001: a profile that leaves one out is invalid, not
 * silently defaulted), as a number for the numeric ones (an integer where the default is an integer, within 64 bits)
 * and within its range. Unknown PICS items, unknown or missing parameters and values outside a parameter's range are
 * reported together, with lines. The identity is kept as declared: a field the profile leaves out is null.
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
        String vendor = null;
        String model = null;
        String firmware = null;
        final Set<String> pics = new LinkedHashSet<>();
        final Map<String, Object> parameters = new LinkedHashMap<>();
        if (root != null) {
            b.onlyKeys(root, "a DUT profile", "identity", "pics", "parameters");
            if (root.has("identity")) {
                final YMap identity = b.map(root.get("identity"), "identity");
                if (identity != null) {
                    b.onlyKeys(identity, "identity", "vendor", "model", "firmware");
                    vendor = b.optionalString(identity, "vendor", "identity");
                    model = b.optionalString(identity, "model", "identity");
                    firmware = b.optionalString(identity, "firmware", "identity");
                }
            }
            for (final String item : b.strings(root.get("pics"), "pics")) {
                if (!spec.picsNames().contains(item)) {
                    b.problem(name, root.keyLine("pics"), "unknown PICS item '" + item + "'; Appendix A lists "
                        + spec.picsNames());
                }
                pics.add(item);
            }
            final YMap params = b.map(b.required(root, "parameters", "a DUT profile"), "parameters");
            if (params != null) {
                final Map<String, Integer> lines = new LinkedHashMap<>();
                for (final Map.Entry<String, YNode> entry : params.entries().entrySet()) {
                    final int line = params.keyLine(entry.getKey());
                    if (spec.parameter(entry.getKey()) == null) {
                        b.problem(name, line, "unknown parameter '" + entry.getKey() + "'");
                        continue;
                    }
                    final Object value = value(b, entry.getKey(), entry.getValue(), spec.parameter(entry.getKey()));
                    if (value != null) {
                        parameters.put(entry.getKey(), value);
                        lines.put(entry.getKey(), line);
                    }
                }
                for (final Parameter parameter : spec.parameters()) {
                    if (!params.has(parameter.name())) {
                        b.problem(name, root.keyLine("parameters"), "missing parameter '" + parameter.name()
                            + "' (MR-CONF-001: a profile declares every parameter of Table B-1; the specification's "
                            + "default is " + parameter.defaultText() + ")");
                    }
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

    /**
     * A declared value: a Long, a Double or a word, or null after a problem. A number must fit in 64 bits and be an
     * integer when the parameter's default is one ({@code recv_window: 128.5} is refused, not truncated).
     */
    private static Object value(final Binder b, final String name, final YNode node, final Parameter parameter) {
        if (!(node instanceof YScalar scalar) || scalar.value() == null || scalar.value() instanceof Boolean) {
            b.problem(node, name + " must be a number or a word, not " + node.kind());
            return null;
        }
        final Object value;
        if (scalar.value() instanceof BigInteger big) {
            if (big.bitLength() > 63) {
                b.problem(node, name + ": " + big + " does not fit in 64 bits");
                return null;
            }
            value = big.longValue();
        } else if (scalar.value() instanceof Number number) {
            value = number instanceof Double d ? d : (Object) number.longValue();
        } else {
            try {
                value = Parameter.parseValue(scalar.text());
            } catch (NumberFormatException e) {
                b.problem(node, name + ": '" + scalar.text() + "' does not fit in 64 bits");
                return null;
            }
        }
        final boolean integer = parameter.defaultValue() instanceof Long;
        if (integer && value instanceof Double d) {
            b.problem(node, name + ": " + scalar.text() + " is not an integer (" + parameter.unit() + ")");
            return null;
        }
        if (value instanceof Double d && (d.isNaN() || d.isInfinite())) {
            b.problem(node, name + ": " + scalar.text() + " is not a finite number");
            return null;
        }
        return value;
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
