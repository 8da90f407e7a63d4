package org.metaroce.mrct.reports;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.metaroce.mrct.reports.internal.Spill;

/**
 * A process writing a spill file, for {@link SpillTest}: {@code SpillHolder FILE hold} appends an entry, prints
 * {@code held} and waits until its standard input ends (or it is killed); {@code SpillHolder FILE exit} appends an
 * entry and exits at once, as a run stopped by a signal does, without deleting the file itself.
 */
public final class SpillHolder {
    private SpillHolder() {
    }

    public static void main(final String[] args) throws Exception {
        final Spill spill = new Spill(Path.of(args[0]));
        spill.append(new byte[0], "{held}".getBytes(StandardCharsets.UTF_8));
        spill.flush(); // appended entries are buffered; the test reads the file
        System.out.println("held");
        System.out.flush();
        if ("hold".equals(args[1])) {
            while (System.in.read() >= 0) {
                // until the test closes our input or kills us
            }
        }
        System.exit(0);
    }
}
