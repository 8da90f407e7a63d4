package org.metaroce.mrct.analyzer.internal;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.atomic.AtomicInteger;
import org.metaroce.mrct.wire.DecodedFrame;
import org.metaroce.mrct.wire.DecodeStatus;
import org.metaroce.mrct.wire.FrameDecoder;
import org.metaroce.mrct.wire.HeaderKind;
import org.metaroce.mrct.wire.Icrc;
import org.metaroce.mrct.wire.LittleEndian;
import org.metaroce.mrct.wire.capture.CaptureFormat;
import org.metaroce.mrct.wire.capture.CaptureReader;
import org.metaroce.mrct.wire.header.Ipv4Flyweight;

/**
 * A {@link CaptureReader} whose reading and ICRC computation run ahead on other threads, for the one thread that
 * analyses the file in order: a reader thread copies the records into {@link Batch}es, the pool's workers compute the
 * ICRC of every Ethernet RoCE frame of a batch (the costliest part of judging a frame: a CRC over all its bytes), and
 * this reader hands the records out in file order with their ICRC ({@link #computedIcrc()}), so that the analysing
 * thread decodes the headers only. What the analysis sees is the same, record for record, as from the file's own
 * reader, damage included: a {@link org.metaroce.mrct.wire.capture.CaptureFormatException} is thrown from
 * {@link #next()} after every record before it.
 *
 * <p>Memory is bounded: {@value #BATCHES} batches of {@value #BATCH_BYTES} bytes at most are in flight (each holds
 * whole records; a record larger than {@link #MAX_FRAME} is passed on without its bytes, for the analysis to refuse),
 * so the heap this costs does not depend on the file's size.
 */
final class PrefetchReader implements CaptureReader {
    /** Bytes of frame data per batch. */
    static final int BATCH_BYTES = 1 << 20;
    /** Records per batch at most. */
    static final int BATCH_RECORDS = 8192;
    /** Batches read ahead at most (queued or being worked on). */
    static final int BATCHES = 8;
    /** The largest record analysed: larger ones cannot be Ethernet frames and are refused by the analysis. */
    static final int MAX_FRAME = 1 << 18;

    /**
     * A buffer the file's reader read records into
     * ({@link CaptureReader#open(Path, int, java.util.function.IntFunction)}), whose records batches refer to in
     * place: counted while the reader reads into it and while a batch refers to it, given back to its pool when
     * neither does any more.
     */
    static final class Window {
        final ByteBuffer buffer;
        private final AtomicInteger users = new AtomicInteger();
        private final BlockingQueue<Window> pool;

        /** @param pool where it goes back when unused, or null to be dropped */
        Window(final ByteBuffer buffer, final BlockingQueue<Window> pool) {
            this.buffer = buffer;
            this.pool = pool;
        }

        void use() {
            users.incrementAndGet();
        }

        void release() {
            if (users.decrementAndGet() == 0 && pool != null) {
                pool.offer(this);
            }
        }
    }

    /** Records of a file and what the workers computed for them. */
    static final class Batch {
        /** The batch's own copy of its records' bytes, or null when they stay in a {@link Window}. */
        final byte[] data;
        ByteBuffer view;
        /** The window its records are in, when it has no copy of them. */
        private Window window;
        final int[] offset = new int[BATCH_RECORDS];
        final int[] captured = new int[BATCH_RECORDS];
        final long[] original = new long[BATCH_RECORDS];
        final long[] ts = new long[BATCH_RECORDS];
        final boolean[] tsKnown = new boolean[BATCH_RECORDS];
        final long[] number = new long[BATCH_RECORDS];
        final long[] byteOffset = new long[BATCH_RECORDS];
        final int[] linkType = new int[BATCH_RECORDS];
        final int[] fcs = new int[BATCH_RECORDS];
        final int[] snap = new int[BATCH_RECORDS];
        final int[] iface = new int[BATCH_RECORDS];
        final String[] comment = new String[BATCH_RECORDS];
        final String[] ifName = new String[BATCH_RECORDS];
        final String[] section = new String[BATCH_RECORDS];
        final CaptureFormat[] format = new CaptureFormat[BATCH_RECORDS];
        final boolean[] bigEndian = new boolean[BATCH_RECORDS];
        final int[] icrc = new int[BATCH_RECORDS];
        final boolean[] icrcKnown = new boolean[BATCH_RECORDS];
        /** The ICRC each frame carries, where {@link #icrcKnown}. */
        final int[] icrcOnWire = new int[BATCH_RECORDS];
        /** Whether each frame's IPv4 header checksum is right (true without IPv4), where {@link #icrcKnown}. */
        final boolean[] ipChecksumRight = new boolean[BATCH_RECORDS];
        /**
         * What the one who filled the batch found of each record ({@link #layout}): {@link #UNSEEN} (the workers
         * decode it), {@link #NO_ICRC} (not a whole Ethernet RoCE frame with an ICRC) or {@link #LAID_OUT} (the
         * positions of its IP header, UDP header, BTH and ICRC, from the frame's start, are in the arrays below).
         */
        final byte[] seen = new byte[BATCH_RECORDS];
        final int[] ipAt = new int[BATCH_RECORDS];
        final int[] ipLength = new int[BATCH_RECORDS];
        final int[] udpAt = new int[BATCH_RECORDS];
        final int[] bthAt = new int[BATCH_RECORDS];
        final int[] icrcAt = new int[BATCH_RECORDS];
        static final byte UNSEEN = 0;
        static final byte NO_ICRC = 1;
        static final byte LAID_OUT = 2;
        int size;
        int used;
        /** Thrown by the file's reader after this batch's records, or null. */
        IOException failure;
        /** The file ended after this batch. */
        boolean last;
        /**
         * The hosts of the groups on the shard this batch feeds, and of all groups, when the dispatcher handed it on
         * ({@link Shards}); both 0 when no dispatcher shares the capture out. A shard's part of the cap on the flows
         * held ({@link Releases}) is in proportion, fixed at a point of the capture (not of the threads' progress).
         */
        int hostsHere;
        int hostsAll;

        Batch() {
            this(true);
        }

        /**
         * @param copies whether records are copied into the batch ({@link #add}) or left in a window
         *               ({@link #addInPlace})
         */
        Batch(final boolean copies) {
            data = copies ? new byte[BATCH_BYTES] : null;
            view = copies ? ByteBuffer.wrap(data) : null;
        }

        /** Lets go of the window its records are in, once they have been read. */
        void release() {
            if (window != null) {
                window.release();
                window = null;
            }
        }

        void clear() {
            size = 0;
            used = 0;
            failure = null;
            last = false;
            hostsHere = 0;
            hostsAll = 0;
            java.util.Arrays.fill(comment, null);
        }

        /** Copies the reader's current record; false when it does not fit. */
        boolean add(final CaptureReader reader) {
            final int length = reader.capturedLength();
            final boolean oversized = length > MAX_FRAME;
            if (size == BATCH_RECORDS || !oversized && used + length > data.length) {
                return false;
            }
            final int i = size++;
            if (oversized) {
                offset[i] = -1;
            } else {
                reader.buffer().get(reader.offset(), data, used, length);
                offset[i] = used;
                used += length;
            }
            describe(i, reader);
            return true;
        }

        /**
         * Takes the reader's current record where it is, in {@code in} (the window the reader read it into, at
         * {@link CaptureReader#offset()}); false when the batch is full or its records are in another window.
         */
        boolean addInPlace(final CaptureReader reader, final Window in) {
            if (size == BATCH_RECORDS || size > 0 && window != in) {
                return false;
            }
            if (window != in) {
                in.use();
                window = in;
                // a view of its own: its ICRC worker and its shard may read it while other threads read the window
                // through their batches' views, and reads such as a CRC over a range move a view's position and limit
                view = in.buffer.duplicate().clear();
            }
            final int i = size++;
            final int length = reader.capturedLength();
            offset[i] = length > MAX_FRAME ? -1 : reader.offset();
            describe(i, reader);
            return true;
        }

        private void describe(final int i, final CaptureReader reader) {
            final int length = reader.capturedLength();
            captured[i] = length;
            original[i] = reader.originalLength();
            ts[i] = reader.timestampNanos();
            tsKnown[i] = reader.timestampKnown();
            number[i] = reader.recordNumber();
            byteOffset[i] = reader.byteOffset();
            linkType[i] = reader.linkType();
            fcs[i] = reader.fcsLength();
            snap[i] = reader.snapLength();
            iface[i] = reader.interfaceId();
            format[i] = reader.format();
            bigEndian[i] = reader.bigEndian();
            if (format[i] == CaptureFormat.PCAPNG) {
                comment[i] = reader.comment();
                ifName[i] = reader.interfaceName();
                section[i] = reader.sectionComment();
            }
            icrcKnown[i] = false;
            seen[i] = UNSEEN;
        }

        /**
         * Says what the last record added is, as decoded from the same bytes by the caller: {@code ipAt < 0} when it
         * has no ICRC to compute (not a whole Ethernet RoCE frame with one), else where its headers are, from the
         * frame's first byte ({@code udpAt} -1 for none), so that {@link #computeIcrcs()} need not decode it again.
         */
        void layout(final int ipAt, final int ipLength, final boolean ipv6, final int udpAt, final int bthAt,
                    final int icrcAt) {
            final int i = size - 1;
            if (ipAt < 0) {
                seen[i] = NO_ICRC;
                return;
            }
            seen[i] = LAID_OUT;
            this.ipAt[i] = ipAt;
            this.ipLength[i] = ipv6 ? -ipLength : ipLength;
            this.udpAt[i] = udpAt;
            this.bthAt[i] = bthAt;
            this.icrcAt[i] = icrcAt;
        }

        /**
         * Computes the ICRC of every whole Ethernet RoCE frame (a worker's part), and reads the one it carries: the
         * frames laid out by {@link #layout} without decoding them again.
         */
        Batch computeIcrcs() {
            final FrameDecoder decoder = new FrameDecoder();
            final Icrc crc = new Icrc();
            final Ipv4Flyweight ipv4 = new Ipv4Flyweight();
            for (int i = 0; i < size; i++) {
                if (seen[i] == LAID_OUT) {
                    final int at = offset[i];
                    final int ip = ipLength[i];
                    icrc[i] = crc.compute(view, at + ipAt[i], Math.abs(ip), ip < 0,
                        udpAt[i] < 0 ? -1 : at + udpAt[i], at + bthAt[i], at + icrcAt[i]);
                    icrcOnWire[i] = LittleEndian.i32(view, at + icrcAt[i]);
                    // as DecodedFrame.ipChecksumValid judges it
                    ipChecksumRight[i] = ip < 0 || ipv4.wrap(view, at + ipAt[i]).checksum() == ipv4.computeChecksum();
                    icrcKnown[i] = true;
                    continue;
                }
                if (seen[i] == NO_ICRC || offset[i] < 0 || linkType[i] != LINKTYPE_ETHERNET
                    || original[i] > captured[i]) {
                    continue;
                }
                final DecodedFrame d = decoder.decode(view, offset[i], captured[i]);
                if (d.status() == DecodeStatus.ROCE && d.has(HeaderKind.ICRC)) {
                    icrc[i] = d.computeIcrc();
                    icrcOnWire[i] = d.icrcOnWire();
                    ipChecksumRight[i] = d.ipChecksumValid();
                    icrcKnown[i] = true;
                }
            }
            return this;
        }
    }

    private final CaptureReader file;
    private final Path path;
    private final ExecutorService workers;
    private final BlockingQueue<CompletableFuture<Batch>> ahead;
    private final BlockingQueue<Batch> free;
    private final Thread readerThread;
    private volatile boolean closed;
    private Batch current;
    private int index = -1;
    private IOException failure;
    private boolean ended;

    /**
     * Starts reading {@code file} ahead on a thread of its own, the ICRCs computed on {@code workers}.
     *
     * @param file    the file's reader, positioned before its first record; closed by {@link #close()}
     * @param workers where batches are worked on
     */
    PrefetchReader(final CaptureReader file, final ExecutorService workers) {
        this.file = file;
        this.path = file.path();
        this.workers = workers;
        this.ahead = new ArrayBlockingQueue<>(BATCHES);
        this.free = new ArrayBlockingQueue<>(BATCHES + 2);
        for (int i = 0; i < BATCHES + 2; i++) {
            free.add(new Batch());
        }
        this.readerThread = new Thread(this::readAhead, "mrct-analyze-read");
        readerThread.setDaemon(true);
        readerThread.start();
    }

    /**
     * Hands out the batches another thread puts on {@code ahead}, in order, each given back to {@code free} once read
     * (a shard of a capture analysed on several threads, {@link Shards}); the last batch has {@link Batch#last} set.
     *
     * @param path  the capture, for {@link #path()}
     */
    PrefetchReader(final Path path, final BlockingQueue<CompletableFuture<Batch>> ahead,
                   final BlockingQueue<Batch> free) {
        this.file = null;
        this.path = path;
        this.workers = null;
        this.ahead = ahead;
        this.free = free;
        this.readerThread = null;
    }

    private void readAhead() {
        try {
            Batch batch = take();
            while (true) {
                boolean more;
                try {
                    more = file.next();
                } catch (IOException e) {
                    batch.failure = e;
                    submit(batch);
                    return;
                }
                if (!more) {
                    batch.last = true;
                    submit(batch);
                    return;
                }
                if (!batch.add(file)) {
                    submit(batch);
                    batch = take();
                    batch.add(file);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException | Error e) {
            final Batch broken = new Batch();
            broken.failure = new IOException("reading ahead failed: " + e, e);
            try {
                ahead.put(CompletableFuture.completedFuture(broken));
            } catch (InterruptedException interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private Batch take() throws InterruptedException {
        final Batch batch = free.take();
        batch.clear();
        return batch;
    }

    private void submit(final Batch batch) throws InterruptedException {
        if (closed) {
            throw new InterruptedException("closed");
        }
        ahead.put(CompletableFuture.supplyAsync(batch::computeIcrcs, workers));
    }

    @Override
    public boolean next() throws IOException {
        if (failure != null) {
            throw failure;
        }
        if (ended) {
            return false;
        }
        while (current == null || index + 1 >= current.size) {
            if (current != null) {
                final Batch done = current;
                current = null;
                if (done.failure != null) {
                    failure = done.failure;
                    done.release();
                    free.offer(done);
                    throw failure;
                }
                if (done.last) {
                    ended = true;
                    done.release();
                    free.offer(done);
                    return false;
                }
                done.release();
                free.offer(done);
            }
            try {
                current = ahead.take().get();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("interrupted while reading " + path);
            } catch (ExecutionException e) {
                throw new IOException("computing ICRCs failed: " + e.getCause(), e.getCause());
            }
            index = -1;
        }
        index++;
        return true;
    }

    /**
     * This reader's part of {@code maxFlows}, the cap on the flows held by all the shards of a capture: in proportion
     * to the hosts of its groups among all hosts, as the dispatcher counted them when it handed on the current batch
     * (at least 64; all of it when no dispatcher shares the capture out). Deterministic: batches are handed on at
     * points of the capture.
     */
    long partOf(final long maxFlows) {
        final Batch b = current;
        return b == null || b.hostsAll == 0 ? maxFlows
            : Math.max(Math.min(64, maxFlows), maxFlows * b.hostsHere / b.hostsAll);
    }

    /** True when the current record's ICRC was computed ahead ({@link #computedIcrc()}). */
    boolean icrcKnown() {
        return current.icrcKnown[index];
    }

    /** The ICRC the current frame should carry, as computed ahead. */
    int computedIcrc() {
        return current.icrc[index];
    }

    /** The ICRC the current frame carries, as read ahead (where {@link #icrcKnown()}). */
    int icrcOnWire() {
        return current.icrcOnWire[index];
    }

    /** Whether the current frame's IPv4 header checksum is right, as judged ahead (where {@link #icrcKnown()}). */
    boolean ipChecksumRight() {
        return current.ipChecksumRight[index];
    }

    /** True when the current record is larger than {@link #MAX_FRAME} and its bytes were not kept. */
    boolean oversized() {
        return current.offset[index] < 0;
    }

    @Override
    public long recordNumber() {
        return current.number[index];
    }

    @Override
    public long byteOffset() {
        return current.byteOffset[index];
    }

    @Override
    public long timestampNanos() {
        return current.ts[index];
    }

    @Override
    public boolean timestampKnown() {
        return current.tsKnown[index];
    }

    @Override
    public int interfaceId() {
        return current.iface[index];
    }

    @Override
    public int linkType() {
        return current.linkType[index];
    }

    @Override
    public int snapLength() {
        return current.snap[index];
    }

    @Override
    public int fcsLength() {
        return current.fcs[index];
    }

    @Override
    public String interfaceName() {
        return current.ifName[index];
    }

    @Override
    public int capturedLength() {
        return current.captured[index];
    }

    @Override
    public long originalLength() {
        return current.original[index];
    }

    @Override
    public ByteBuffer buffer() {
        return current.view;
    }

    @Override
    public int offset() {
        return Math.max(0, current.offset[index]);
    }

    @Override
    public String comment() {
        return current.comment[index];
    }

    @Override
    public String sectionComment() {
        return current.section[index];
    }

    @Override
    public CaptureFormat format() {
        return current.format[index];
    }

    @Override
    public boolean bigEndian() {
        return current.bigEndian[index];
    }

    @Override
    public Path path() {
        return path;
    }

    @Override
    public void close() throws IOException {
        closed = true;
        if (readerThread == null) {
            return;
        }
        readerThread.interrupt();
        try {
            readerThread.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        file.close();
    }
}
