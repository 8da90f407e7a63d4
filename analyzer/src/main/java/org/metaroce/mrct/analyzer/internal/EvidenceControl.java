package org.metaroce.mrct.analyzer.internal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.metaroce.mrct.harness.result.EvidenceComment;
import org.metaroce.mrct.wire.capture.CaptureReader;

/**
 * The control-plane records of an mrct evidence file (reports/README.md: interface {@code control}, one packet per
 * call, its bytes the call's JSON record), read ahead of the analysis: they follow the frames of their case, but the
 * QPs' attributes they carry (a case may give its QPs another send window or other DCQCN constants than the
 * profile's) and the resets they show are needed while the frames are judged. A second reader on the same file runs
 * ahead of the analysis to the end of each case's records; only {@code createQp} and {@code modifyQp} records are
 * parsed, so the cost is one more sequential read of the file.
 */
final class EvidenceControl implements AutoCloseable {
    /** pcapng link type of the control interface (USER0). */
    static final int LINKTYPE_CONTROL = 147;

    /** What the control records of one case say about one of the device's QPs. */
    static final class Qp {
        final int qpn;
        int destQpn = -1;
        /** Every value each attribute was given in the case, in order, without repeats. */
        final Map<String, List<Double>> values = new HashMap<>();
        /** Moved to RESET during the case (it may then come back with new PSNs and MSN 0). */
        boolean reset;

        Qp(final int qpn) {
            this.qpn = qpn;
        }

        void set(final String name, final double value) {
            final List<Double> list = values.computeIfAbsent(name, k -> new ArrayList<>(1));
            if (!list.contains(value)) {
                list.add(value);
            }
            if (name.equals("dest_qpn")) {
                destQpn = (int) value;
            }
        }
    }

    private final CaptureReader reader;
    private final Map<Integer, Qp> byQpn = new HashMap<>();
    private final Map<Integer, Qp> byDestQpn = new HashMap<>();
    private boolean pending;
    private String pendingCase;
    private boolean ended;

    EvidenceControl(final CaptureReader reader) {
        this.reader = reader;
    }

    /**
     * Reads ahead to the end of case {@code kase}'s records (the main reader has just met its first record) and keeps
     * what its control records say. A damaged file ends the look-ahead quietly: the analysis reports the damage.
     */
    void load(final String kase) {
        byQpn.clear();
        byDestQpn.clear();
        boolean seen = false;
        try {
            while (true) {
                if (!pending) {
                    if (ended || !reader.next()) {
                        ended = true;
                        return;
                    }
                    pending = true;
                    pendingCase = caseOf(reader.comment());
                }
                if (pendingCase != null && !pendingCase.equals(kase)) {
                    if (seen) {
                        return;
                    }
                    pending = false;
                    continue;
                }
                seen = seen || pendingCase != null;
                if (reader.linkType() == LINKTYPE_CONTROL) {
                    record(reader.buffer(), reader.offset(), reader.capturedLength());
                }
                pending = false;
            }
        } catch (IOException | RuntimeException e) {
            ended = true;
        }
    }

    private static String caseOf(final String comment) {
        if (comment == null || !comment.startsWith("mrct ")) {
            return null;
        }
        final int at = comment.indexOf(" case=");
        if (at < 0) {
            return null;
        }
        final int end = comment.indexOf(' ', at + 6);
        return EvidenceComment.decode(comment.substring(at + 6, end < 0 ? comment.length() : end));
    }

    private void record(final ByteBuffer buffer, final int offset, final int length) {
        final int headLength = Math.min(length, 96);
        final byte[] head = new byte[headLength];
        buffer.get(offset, head);
        final String start = new String(head, StandardCharsets.ISO_8859_1);
        final boolean create = start.contains("\"op\":\"createQp\"");
        if (!create && !start.contains("\"op\":\"modifyQp\"")) {
            return;
        }
        final byte[] b = new byte[length];
        buffer.get(offset, b);
        if (!endsWith(b, "\"error\":null}")) {
            return;
        }
        if (create) {
            final int result = find(b, "\"result\":", 0);
            if (result < 0 || !isNumberStart(b[result])) {
                return;
            }
            final Qp qp = new Qp((int) number(b, result));
            attributes(b, qp);
            byQpn.put(qp.qpn, qp);
            if (qp.destQpn >= 0) {
                byDestQpn.put(qp.destQpn, qp);
            }
            return;
        }
        final int at = find(b, "\"qpn\":", 0);
        final Qp qp = at < 0 ? null : byQpn.get((int) number(b, at));
        if (qp == null) {
            return;
        }
        if (find(b, "\"state\":\"RESET\"", 0) >= 0) {
            qp.reset = true;
        }
        final int dest = qp.destQpn;
        attributes(b, qp);
        if (qp.destQpn != dest && qp.destQpn >= 0) {
            byDestQpn.put(qp.destQpn, qp);
        }
    }

    /** The numeric members of the record's flat {@code "attributes"} object (other values are skipped). */
    private static void attributes(final byte[] b, final Qp qp) {
        int i = find(b, "\"attributes\":{", 0);
        if (i < 0) {
            return;
        }
        while (i < b.length) {
            i = skipSpace(b, i);
            if (b[i] == '}') {
                return;
            }
            if (b[i] == ',') {
                i++;
                continue;
            }
            if (b[i] != '"') {
                return;
            }
            final int nameEnd = skipString(b, i);
            final String name = new String(b, i + 1, nameEnd - i - 2, StandardCharsets.UTF_8);
            i = skipSpace(b, nameEnd);
            if (b[i] != ':') {
                return;
            }
            i = skipSpace(b, i + 1);
            if (isNumberStart(b[i])) {
                int end = i;
                while (end < b.length && "+-.0123456789eE".indexOf(b[end]) >= 0) {
                    end++;
                }
                qp.set(name, Double.parseDouble(new String(b, i, end - i, StandardCharsets.ISO_8859_1)));
                i = end;
            } else {
                i = skipValue(b, i);
            }
        }
    }

    private static boolean isNumberStart(final byte c) {
        return c == '-' || c >= '0' && c <= '9';
    }

    private static long number(final byte[] b, final int at) {
        long v = 0;
        for (int i = at; i < b.length && b[i] >= '0' && b[i] <= '9'; i++) {
            v = v * 10 + b[i] - '0';
        }
        return v;
    }

    private static int skipSpace(final byte[] b, final int at) {
        int i = at;
        while (i < b.length - 1 && (b[i] == ' ' || b[i] == '\n' || b[i] == '\r' || b[i] == '\t')) {
            i++;
        }
        return i;
    }

    /** The index after the string that starts at {@code at}. */
    private static int skipString(final byte[] b, final int at) {
        int i = at + 1;
        while (i < b.length && b[i] != '"') {
            i += b[i] == '\\' ? 2 : 1;
        }
        return i + 1;
    }

    /** The index after the value (string, array, object or literal) that starts at {@code at}. */
    private static int skipValue(final byte[] b, final int at) {
        int depth = 0;
        int i = at;
        while (i < b.length) {
            final byte c = b[i];
            if (c == '"') {
                i = skipString(b, i);
                if (depth == 0) {
                    return i;
                }
                continue;
            }
            if (c == '[' || c == '{') {
                depth++;
            } else if (c == ']' || c == '}') {
                if (depth == 0) {
                    return i;
                }
                depth--;
                if (depth == 0) {
                    return i + 1;
                }
            } else if (c == ',' && depth == 0) {
                return i;
            }
            i++;
        }
        return i;
    }

    private static int find(final byte[] b, final String what, final int from) {
        final byte[] w = what.getBytes(StandardCharsets.ISO_8859_1);
        outer:
        for (int i = from; i <= b.length - w.length; i++) {
            for (int j = 0; j < w.length; j++) {
                if (b[i + j] != w[j]) {
                    continue outer;
                }
            }
            return i + w.length;
        }
        return -1;
    }

    private static boolean endsWith(final byte[] b, final String what) {
        final byte[] w = what.getBytes(StandardCharsets.ISO_8859_1);
        if (b.length < w.length) {
            return false;
        }
        for (int j = 0; j < w.length; j++) {
            if (b[b.length - w.length + j] != w[j]) {
                return false;
            }
        }
        return true;
    }

    /** The device's QP whose frames go to QP {@code destQpn} (its dest_qpn), or null. */
    Qp byDestination(final int destQpn) {
        return byDestQpn.get(destQpn);
    }

    /** The device's QP {@code qpn}, or null. */
    Qp byNumber(final int qpn) {
        return byQpn.get(qpn);
    }

    @Override
    public void close() throws IOException {
        reader.close();
    }
}
