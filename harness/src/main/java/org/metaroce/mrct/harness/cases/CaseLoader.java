package org.metaroce.mrct.harness.cases;

import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.FileVisitResult;
import java.nio.file.FileSystemAlreadyExistsException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.metaroce.mrct.harness.spec.Specification;
import org.metaroce.mrct.harness.yaml.Binder;
import org.metaroce.mrct.harness.yaml.YamlProblem;
import org.metaroce.mrct.harness.yaml.YamlReader;

/**
 * Loads case files: every {@code <dir>/<area>/**.yaml} of each directory given, every {@code .yaml} file directly in
 * it (a folder of shrunk cases) and every file given itself; a file outside an area folder takes its area from its
 * name's prefix ({@code qp-011-x.yaml} is QP, {@code GEN-3-shrunk.yaml} GEN), else GEN. Every file is read and checked, every
 * problem of every file is collected with {@code file:line}, and only then does {@link #load} either return the cases
 * or throw one {@link CaseLoadException} listing them all (JUnit's discovery-issue model, not packetdrill's die on the
 * first error).
 */
public final class CaseLoader {
    /** Resource directory of the cases bundled in the {@code mrct-spec-cases} jar. */
    public static final String BUNDLED_ROOT = "mrct-cases";

    private final LoadContext context;

    public CaseLoader(final Specification spec) {
        this.context = new LoadContext(spec);
    }

    /** Loads every case under the given directories (or case files), sorted by area order and ID. */
    public List<CaseDef> load(final List<Path> directories) throws CaseLoadException {
        final List<YamlProblem> problems = new ArrayList<>();
        final List<CaseDef> cases = new ArrayList<>();
        for (final Path directory : directories) {
            loadDirectory(directory, cases, problems);
        }
        checkUnique(cases, problems);
        if (!problems.isEmpty()) {
            throw new CaseLoadException(problems);
        }
        cases.sort(Comparator.comparingInt((CaseDef c) -> areaIndex(c.area())).thenComparing(CaseDef::id));
        return cases;
    }

    /** Loads the cases bundled on the class path (the {@code mrct-spec-cases} jar or its build directory). */
    public List<CaseDef> loadBundled() throws CaseLoadException {
        final URL marker = CaseLoader.class.getClassLoader().getResource(BUNDLED_ROOT + "/README.md");
        if (marker == null) {
            throw new CaseLoadException(List.of(new YamlProblem(BUNDLED_ROOT, 0,
                "no bundled cases on the class path (is mrct-spec-cases a dependency?)")));
        }
        try {
            final URI uri = marker.toURI();
            if ("jar".equals(uri.getScheme())) {
                final FileSystem zip = openZip(uri);
                return load(List.of(zip.getPath(BUNDLED_ROOT)));
            }
            return load(List.of(Paths.get(uri).getParent()));
        } catch (URISyntaxException | IOException e) {
            throw new CaseLoadException(List.of(new YamlProblem(marker.toString(), 0, "cannot read bundled cases: "
                + e.getMessage())));
        }
    }

    private static FileSystem openZip(final URI uri) throws IOException {
        try {
            return FileSystems.newFileSystem(uri, Map.of());
        } catch (FileSystemAlreadyExistsException e) {
            return FileSystems.getFileSystem(uri);
        }
    }

    private static int areaIndex(final String area) {
        final int index = Specification.AREAS.indexOf(area);
        return index < 0 ? Specification.AREAS.size() : index;
    }

    private void loadDirectory(final Path directory, final List<CaseDef> cases, final List<YamlProblem> problems) {
        if (Files.isRegularFile(directory)) {
            final Path name = directory.getFileName();
            loadFile(directory, name == null ? directory.toString() : name.toString(), looseArea(directory), cases,
                problems);
            return;
        }
        if (!Files.isDirectory(directory)) {
            problems.add(new YamlProblem(directory.toString(), 0, "case directory or file does not exist"));
            return;
        }
        final List<Path> files = new ArrayList<>();
        try {
            // walkFileTree rather than Files.walk: a build folder (target/, where surefire rewrites its reports while
            // other tests load the cases) is pruned before it is entered, and a file that vanishes between listing and
            // reading is no error, where Files.walk throws an UncheckedIOException out of the stream
            Files.walkFileTree(directory, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult preVisitDirectory(final Path dir, final BasicFileAttributes attrs) {
                    return !dir.equals(directory) && isBuildOrSource(directory.relativize(dir).resolve("x"))
                        ? FileVisitResult.SKIP_SUBTREE : FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFile(final Path file, final BasicFileAttributes attrs) {
                    final String name = file.getFileName().toString();
                    if (attrs.isRegularFile() && !isBuildOrSource(directory.relativize(file))
                        && (name.endsWith(".yaml") || name.endsWith(".yml"))) {
                        files.add(file);
                    }
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFileFailed(final Path file, final IOException e) throws IOException {
                    if (e instanceof NoSuchFileException) {
                        return FileVisitResult.CONTINUE;
                    }
                    throw e;
                }
            });
        } catch (IOException e) {
            problems.add(new YamlProblem(directory.toString(), 0, "cannot list: " + e.getMessage()));
            return;
        }
        files.sort(Comparator.comparing(Path::toString));
        for (final Path file : files) {
            final String relative = directory.relativize(file).toString().replace('\\', '/');
            final int slash = relative.indexOf('/');
            if (slash < 0) {
                loadFile(file, relative, looseArea(file), cases, problems);
                continue;
            }
            final String area = relative.substring(0, slash).toUpperCase(Locale.ROOT);
            if (!isArea(area)) {
                problems.add(new YamlProblem(relative, 0, "unknown area folder '" + relative.substring(0, slash)
                    + "' (area folders: " + Specification.AREAS.stream().map(a -> a.toLowerCase(Locale.ROOT))
                    .toList() + ", gen)"));
                continue;
            }
            loadFile(file, relative, area, cases, problems);
        }
    }

    private void loadFile(final Path file, final String relative, final String area, final List<CaseDef> cases,
                          final List<YamlProblem> problems) {
        final String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            problems.add(new YamlProblem(relative, 0, "cannot read: " + e.getMessage()));
            return;
        }
        final CaseDef loaded = parse(relative, area, text, problems);
        if (loaded != null) {
            cases.add(loaded);
        }
    }

    private static boolean isArea(final String area) {
        return Specification.AREAS.contains(area) || area.equals("GEN");
    }

    /** The area of a case file outside an area folder: its name's prefix when that names an area, else GEN. */
    private static String looseArea(final Path file) {
        final Path name = file.getFileName();
        final String text = name == null ? "" : name.toString();
        final int dash = text.indexOf('-');
        final String prefix = dash < 0 ? "" : text.substring(0, dash).toUpperCase(Locale.ROOT);
        return isArea(prefix) ? prefix : "GEN";
    }

    /** Module folders that hold no cases: Maven's build output and sources, hidden folders. */
    private static boolean isBuildOrSource(final Path relative) {
        final String top = relative.getName(0).toString();
        return relative.getNameCount() > 1 && (top.equals("target") || top.equals("src") || top.startsWith("."));
    }

    /** Parses one case from text; problems go to {@code problems}. */
    public CaseDef parse(final String file, final String area, final String text, final List<YamlProblem> problems) {
        final YamlReader.Result yaml = YamlReader.read(file, text);
        problems.addAll(yaml.problems());
        if (yaml.root() == null) {
            return null;
        }
        final Binder binder = new Binder();
        final CaseDef loaded = new CaseReader(binder, context, area, file).read(yaml.root());
        problems.addAll(binder.problems());
        return binder.problems().isEmpty() && yaml.problems().isEmpty() ? loaded : null;
    }

    private static void checkUnique(final List<CaseDef> cases, final List<YamlProblem> problems) {
        final Map<String, CaseDef> seen = new LinkedHashMap<>();
        for (final CaseDef c : cases) {
            final CaseDef previous = seen.putIfAbsent(c.id(), c);
            if (previous != null) {
                problems.add(new YamlProblem(c.file(), 1, "duplicate case ID " + c.id() + " (also in "
                    + previous.file() + ")"));
            }
        }
    }
}
