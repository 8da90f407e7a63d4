package org.metaroce.mrct.analyzer.internal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.metaroce.mrct.wire.BigEndian;
import org.metaroce.mrct.wire.DecodeStatus;
import org.metaroce.mrct.wire.DecodedFrame;
import org.metaroce.mrct.wire.FrameDecoder;
import org.metaroce.mrct.wire.HeaderKind;
import org.metaroce.mrct.wire.capture.CaptureReader;

/**
 * One capture analysed on several threads, its connections spread over {@code n} shards, each a {@link Session} of
 * its own on a thread of its own, fed in capture order by the calling thread (the dispatcher), which reads the file.
 *
 * <p>The unit of the partition is a group of hosts: the connected parts of the graph whose nodes are the IP addresses
 * and whose edges are the frames between them. Everything a session keeps across connections is keyed by a host or a
 * pair of hosts: the flows and the pairing of a connection's two directions by the host pair, the CNP scopes
 * (per port, per destination) and the congestion expectations by host, the frames out of scope by their addresses. So
 * no state joins two groups, and a shard holding some groups whole judges them exactly as one session holding every
 * group does; what crosses groups is the capture's clock, which is carried: every shard starts from the capture's
 * first timestamp (read when the shard sees its first frame, which the dispatcher hands out after the capture's first)
 * and ends at its last ({@link Session#shardOf}, {@link Session#captureEnd}), and between them the
 * CNP deadlines of a group pass at the group's own frames, where nothing of the group has changed since the frame of
 * another group at which a single session would see them pass.
 *
 * <p>Groups are found as the frames come: a frame between two new hosts starts a group on the shard with the fewest
 * frames; a frame with one known host joins its group. A frame that joins two groups already on different shards
 * (a host pair seen only after both hosts had traffic elsewhere) cannot be handled without moving state between
 * threads: the shards are abandoned and {@link #run} returns null, for the caller to analyse the capture on one
 * thread. mrct evidence files (recognised by their first record) are not sharded either.
 *
 * <p>The ICRCs of a full batch's frames are computed on a small pool of threads of its own before its shard reads it
 * (as {@link PrefetchReader} does), so that a shard's thread decodes the headers only.
 *
 * <p>The frames are not copied: the file is read into pooled direct buffers of 1 MiB ({@link PrefetchReader.Window},
 * {@link CaptureReader#open(Path, int, java.util.function.IntFunction)}), a batch names its records where they were
 * read, and a buffer is read into again only once no batch holds records of it. (Copying every record into its
 * batch was 40 % of the calling thread's samples on a one-connection capture.) When the reader moves on to the next
 * buffer, the batches being filled are handed on, so that a shard that gets few frames holds no buffer for long.
 *
 * <p>Memory: per shard {@value #QUEUED} queued batches, one being read and one being filled
 * ({@link PrefetchReader.Batch}, record descriptions only), and one 1 MiB buffer per batch and two more, direct,
 * whatever the capture's size.
 */
final class Shards {
    /** Shards at most (each costs {@value #QUEUED} + 2 batches and as many 1 MiB buffers). */
    static final int MAX = 16;
    /** Batches queued per shard at most. */
    static final int QUEUED = 4;

    /** What the shards found, merged; {@code session} carries the counts of all of them. */
    record Result(Session session, List<Connection> connections, IOException failure) {
    }

    /** Creates the session of a shard. */
    interface SessionFactory {
        Session create();
    }

    private Shards() {
    }

    /**
     * Analyses {@code path} on {@code n} shards run by {@code workers}; null when the capture cannot be sharded (then
     * nothing of it was reported, and the caller analyses it on one thread).
     *
     * @param progress told how far the reading got, or null
     */
    static Result run(final Path path, final int n, final ExecutorService workers, final SessionFactory sessions,
                      final Analysis.Progress progress) throws IOException {
        // the ICRCs of full batches are computed on threads of their own, beside the shards (which the pool of
        // workers runs, all of them): a capture that is one group keeps its reading and ICRCs off its shard's thread
        final java.util.concurrent.atomic.AtomicInteger number = new java.util.concurrent.atomic.AtomicInteger();
        final ExecutorService icrcs = java.util.concurrent.Executors.newFixedThreadPool(Math.max(1, Math.min(n, MAX)
            / 2), r -> {
                final Thread thread = new Thread(r, "mrct-analyze-icrc-" + number.incrementAndGet());
                thread.setDaemon(true);
                return thread;
            });
        final Dispatch dispatch = new Dispatch(path, Math.min(n, MAX), workers, icrcs, sessions, progress);
        try (CaptureReader file = CaptureReader.open(path, CaptureReader.DEFAULT_BUFFER_SIZE, dispatch::window)) {
            return dispatch.run(file);
        } finally {
            icrcs.shutdownNow();
        }
    }

    /** The dispatcher's state for one capture. */
    private static final class Dispatch {
        private final Path path;
        private final int n;
        private final ExecutorService workers;
        private final ExecutorService icrcs;
        private final SessionFactory factory;
        private final Analysis.Progress progress;
        private final Session[] sessions;
        private final List<BlockingQueue<CompletableFuture<PrefetchReader.Batch>>> queues = new ArrayList<>();
        private final BlockingQueue<PrefetchReader.Batch> free;
        /**
         * The buffers the file is read into, each holding its records until every batch that refers to them has been
         * read: one per batch in flight and two more, so that the reading never waits for a window a batch does not
         * hold.
         */
        private final BlockingQueue<PrefetchReader.Window> windows;
        /** The window the file's reader reads into, and the one it has just moved on to (null when none). */
        private PrefetchReader.Window reading;
        private PrefetchReader.Window movedTo;
        private final PrefetchReader.Batch[] filling;
        private final List<Future<?>> running = new ArrayList<>();
        /** The shards given their last batch (they end on their own after it). */
        private final boolean[] fed;
        private final Router router;
        private final FrameDecoder decoder = new FrameDecoder();
        /** The dispatcher's look at the common frame, without {@link #decoder} ({@link FastLayout}). */
        private final FastLayout fast = new FastLayout();
        /** The capture's first timestamp (its first record not oversized), written before that record is handed on. */
        private volatile long origin = Long.MIN_VALUE;
        private ByteBuffer scratch = ByteBuffer.allocate(1 << 16);
        private final java.util.function.IntFunction<ByteBuffer> scratches = this::scratch;
        /**
         * The layout of the current record as {@link #route} decoded it, from the frame's first byte, for the ICRC
         * workers ({@link PrefetchReader.Batch#layout}): {@code ipAt} -1 when it has no ICRC for them to compute.
         */
        private int ipAt = -1;
        private int ipLength;
        private boolean ipv6;
        private int udpAt;
        private int bthAt;
        private int icrcAt;

        Dispatch(final Path path, final int n, final ExecutorService workers, final ExecutorService icrcs,
                 final SessionFactory factory, final Analysis.Progress progress) {
            this.path = path;
            this.n = n;
            this.workers = workers;
            this.icrcs = icrcs;
            this.factory = factory;
            this.progress = progress;
            this.sessions = new Session[n];
            this.filling = new PrefetchReader.Batch[n];
            this.fed = new boolean[n];
            this.free = new ArrayBlockingQueue<>(n * (QUEUED + 2));
            this.windows = new ArrayBlockingQueue<>(n * (QUEUED + 2) + 2);
            for (int k = 0; k < n * (QUEUED + 2) + 2; k++) {
                windows.add(new PrefetchReader.Window(ByteBuffer.allocateDirect(CaptureReader.DEFAULT_BUFFER_SIZE),
                    windows));
            }
            this.router = new Router(n);
        }

        /**
         * A fresh buffer of at least {@code size} bytes for the file's reader, which moves on to it: a pooled window,
         * once every batch holding records of it has been read, or one of its own for a record larger than they.
         */
        ByteBuffer window(final int size) {
            final PrefetchReader.Window next;
            if (size > CaptureReader.DEFAULT_BUFFER_SIZE) {
                next = new PrefetchReader.Window(ByteBuffer.allocateDirect(size), null);
            } else {
                try {
                    PrefetchReader.Window pooled;
                    while ((pooled = windows.poll(100, TimeUnit.MILLISECONDS)) == null) {
                        failed();
                    }
                    next = pooled;
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new java.io.UncheckedIOException(
                        new java.io.InterruptedIOException("interrupted while reading " + path));
                }
            }
            next.use(); // the reader's, until it moves on
            if (movedTo != null) {
                movedTo.release(); // moved on again within one record: nothing was handed out from it
            }
            movedTo = next;
            return next.buffer;
        }

        /**
         * After the reader moved on to another window: the batches being filled are handed on (their records are
         * all in the windows before), so that no window stays held by a shard that gets few frames.
         */
        private void movedOn() throws IOException {
            for (int k = 0; k < n; k++) {
                if (filling[k].size > 0) {
                    put(k, filling[k]);
                    filling[k] = take();
                }
            }
            if (reading != null) {
                reading.release();
            }
            reading = movedTo;
            movedTo = null;
        }
        Result run(final CaptureReader file) throws IOException {
            final long start = System.nanoTime();
            IOException failure = null;
            boolean more;
            try {
                more = file.next();
            } catch (IOException e) {
                return null; // damaged from its first record: nothing to spread
            }
            if (!more) {
                return null;
            }
            final String comment = file.comment();
            if (comment != null && comment.startsWith("mrct ") && comment.contains(" case=")) {
                return null; // mrct evidence: judged case by case on one thread
            }
            long lastNs = 0;
            long records = 0;
            final long size = progress == null ? 0 : size();
            for (int k = 0; k < n; k++) {
                sessions[k] = factory.create();
                sessions[k].shardOf(() -> origin);
                queues.add(new ArrayBlockingQueue<>(QUEUED));
            }
            for (int k = 0; k < n * (QUEUED + 2); k++) {
                free.add(new PrefetchReader.Batch(false));
            }
            for (int k = 0; k < n; k++) {
                final Session session = sessions[k];
                final PrefetchReader reader = new PrefetchReader(path, queues.get(k), free);
                running.add(workers.submit(() -> {
                    session.run(reader);
                    return null;
                }));
                filling[k] = take();
            }
            boolean abandoned = false;
            try {
                while (more) {
                    if (movedTo != null) {
                        movedOn();
                    }
                    if ((++records & 0xFFFF) == 0 && progress != null) {
                        progress.update(file.byteOffset(), size, records);
                    }
                    lastNs = Math.max(lastNs, file.timestampNanos());
                    if (origin == Long.MIN_VALUE && file.capturedLength() <= PrefetchReader.MAX_FRAME) {
                        // as a session on its own sets it: oversized records are refused before
                        origin = file.timestampNanos();
                    }
                    final int shard = route(file);
                    if (shard < 0) {
                        abandoned = true;
                        break;
                    }
                    add(shard, file);
                    try {
                        more = file.next();
                    } catch (IOException e) {
                        failure = e;
                        more = false;
                    }
                }
                if (!abandoned && progress != null) {
                    progress.update(size, size, records);
                }
            } finally {
                for (int k = 0; k < n; k++) {
                    filling[k].last = true;
                    put(k, filling[k]);
                    fed[k] = true;
                }
                for (final Future<?> shard : running) {
                    Futures.join(shard);
                }
            }
            if (abandoned) {
                return null;
            }
            final List<Connection> connections = new ArrayList<>();
            final List<OutOfScope> outOfScope = new ArrayList<>();
            final Session merged = sessions[0];
            for (int k = 0; k < n; k++) {
                final Session s = sessions[k];
                s.captureEnd(lastNs);
                connections.addAll(s.finish());
                if (k > 0) {
                    merged.frames += s.frames;
                    merged.roceFrames += s.roceFrames;
                    merged.otherLinkFrames += s.otherLinkFrames;
                    merged.malformedFrames += s.malformedFrames;
                    merged.cutFrames += s.cutFrames;
                    merged.oversizedFrames += s.oversizedFrames; // all routed to shard 0, which names the first
                    outOfScope.add(s.outOfScope);
                }
            }
            merged.outOfScope.absorb(outOfScope);
            merged.elapsedNs = System.nanoTime() - start;
            return new Result(merged, connections, failure);
        }

        private long size() {
            try {
                return java.nio.file.Files.size(path);
            } catch (IOException e) {
                return 0;
            }
        }

        /**
         * The shard of the current record, or -1 when it joins groups on two shards. The record is looked at as the
         * session will look at it (link layer rewritten, a cut frame padded to its length), for the same addresses;
         * a record without IP addresses touches no group's state and goes to shard 0.
         */
        private int route(final CaptureReader file) {
            ipAt = -1;
            if (file.capturedLength() > PrefetchReader.MAX_FRAME) {
                return 0;
            }
            ByteBuffer buffer = file.buffer();
            int offset = file.offset();
            int length = file.capturedLength();
            final int linkType = file.linkType();
            if (linkType == CaptureReader.LINKTYPE_ETHERNET && file.originalLength() <= length
                && fast.locate(buffer, offset, length)) {
                // the common frame, without a decode (FastLayout): as below, from the same positions
                laidOut(fast.ipv6, fast.ip, fast.ipLength, fast.udp, fast.bth, fast.icrc, offset);
                return route(buffer, fast.ip, fast.ipv6);
            }
            if (linkType != CaptureReader.LINKTYPE_ETHERNET) {
                if (!LinkLayer.supported(linkType)) {
                    return 0;
                }
                length = LinkLayer.toEthernet(linkType, buffer, offset, length, scratch(length + 16));
                if (length < 0) {
                    return 0;
                }
                buffer = scratch;
                offset = 0;
            }
            final long original = file.originalLength() - (file.capturedLength() - length);
            final ByteBuffer padded = Session.zeroPadded(buffer, offset, length, original, scratches);
            if (padded != null) {
                buffer = padded;
                offset = 0;
                length = (int) original;
            }
            final DecodedFrame d = decoder.decode(buffer, offset, length);
            if (padded == null && buffer == file.buffer() && file.originalLength() <= length && d.isRoce()
                && d.has(HeaderKind.ICRC)) {
                // a whole Ethernet RoCE frame: its ICRC is computed ahead from these positions (as
                // DecodedFrame.computeIcrc would from the same decode)
                final boolean v6 = d.has(HeaderKind.IPV6);
                laidOut(v6, d.offset(v6 ? HeaderKind.IPV6 : HeaderKind.IPV4), d.ipHeaderLength(),
                    d.has(HeaderKind.UDP) ? d.offset(HeaderKind.UDP) : -1, d.offset(HeaderKind.BTH),
                    d.offset(HeaderKind.ICRC), offset);
            }
            if (d.status() == DecodeStatus.NOT_ROCE) {
                return 0;
            }
            final int version = d.ipVersion();
            if (version != 4 && version != 6) {
                return 0;
            }
            final int ip = d.offset(version == 4 ? HeaderKind.IPV4 : HeaderKind.IPV6);
            if (ip < 0) {
                return 0;
            }
            return route(buffer, ip, version == 6);
        }

        /**
         * The layout of the current record for the ICRC workers, from absolute positions in a buffer whose record
         * starts at {@code offset} ({@code udp} -1 for none: RoCEv1).
         */
        private void laidOut(final boolean v6, final int ip, final int ipHeaderLength, final int udp, final int bth,
                             final int icrc, final int offset) {
            ipv6 = v6;
            ipAt = ip - offset;
            ipLength = ipHeaderLength;
            udpAt = udp < 0 ? -1 : udp - offset;
            bthAt = bth - offset;
            icrcAt = icrc - offset;
        }

        /** The shard of a frame whose IPv4 or IPv6 header is at {@code ip}, by its two addresses. */
        private int route(final ByteBuffer buffer, final int ip, final boolean v6) {
            return v6
                ? router.route(BigEndian.i64(buffer, ip + 8), BigEndian.i64(buffer, ip + 16),
                    BigEndian.i64(buffer, ip + 24), BigEndian.i64(buffer, ip + 32))
                : router.route(0, BigEndian.i32(buffer, ip + 12) & 0xFFFF_FFFFL | 1L << 32, 0,
                    BigEndian.i32(buffer, ip + 16) & 0xFFFF_FFFFL | 1L << 32);
        }

        private ByteBuffer scratch(final int size) {
            if (scratch.capacity() < size) {
                scratch = ByteBuffer.allocate(Integer.highestOneBit(size) << 1);
            }
            return scratch;
        }

        private void add(final int shard, final CaptureReader file) throws IOException {
            if (!filling[shard].addInPlace(file, reading)) {
                put(shard, filling[shard]);
                filling[shard] = take();
                filling[shard].addInPlace(file, reading);
            }
            filling[shard].layout(ipAt, ipLength, ipv6, udpAt, bthAt, icrcAt);
        }

        private PrefetchReader.Batch take() throws IOException {
            try {
                while (true) {
                    final PrefetchReader.Batch batch = free.poll(100, TimeUnit.MILLISECONDS);
                    if (batch != null) {
                        batch.clear();
                        return batch;
                    }
                    failed();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new java.io.InterruptedIOException("interrupted while reading " + path);
            }
        }

        private void put(final int shard, final PrefetchReader.Batch batch) throws IOException {
            batch.hostsHere = router.hostsOn(shard);
            batch.hostsAll = router.hosts();
            final CompletableFuture<PrefetchReader.Batch> ready = CompletableFuture.supplyAsync(batch::computeIcrcs,
                icrcs);
            try {
                while (!queues.get(shard).offer(ready, 100, TimeUnit.MILLISECONDS)) {
                    failed();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new java.io.InterruptedIOException("interrupted while reading " + path);
            }
        }

        /** Throws what a shard threw, if one ended before it was given its last batch. */
        private void failed() {
            for (int k = 0; k < running.size(); k++) {
                if (!fed[k] && running.get(k).isDone()) {
                    Futures.join(running.get(k));
                    throw new IllegalStateException("shard " + k + " of " + path + " ended before the capture");
                }
            }
        }
    }

    /**
     * The groups of hosts (union-find over the addresses seen) and the shard of each; an IPv4 address is
     * {@code (0, address | 1 << 32)}, an IPv6 one its two halves.
     */
    static final class Router {
        private final HostGroups groups = new HostGroups();
        private int[] shardOf = new int[64];
        private final long[] load;
        /** The hosts of the groups on each shard. */
        private final int[] hostsOn;
        private long lastA;
        private long lastB;
        private long lastC;
        private long lastD;
        private int lastShard = -1;

        Router(final int shards) {
            this.load = new long[shards];
            this.hostsOn = new int[shards];
        }

        /** The shard of a frame from (a, b) to (c, d), or -1 when the two hosts' groups are on different shards. */
        int route(final long a, final long b, final long c, final long d) {
            // the last frame's two hosts, either way round (a connection's requests and their answers alternate):
            // already one group on that shard, as the lookups below would find
            if (lastShard >= 0 && (a == lastA && b == lastB && c == lastC && d == lastD
                || a == lastC && b == lastD && c == lastA && d == lastB)) {
                load[lastShard]++;
                return lastShard;
            }
            final int known = groups.size();
            final int x = groups.root(host(a, b));
            final int y = groups.root(host(c, d));
            int shard;
            if (shardOf[x] >= 0 && shardOf[y] >= 0 && shardOf[x] != shardOf[y]) {
                return -1;
            }
            shard = shardOf[x] >= 0 ? shardOf[x] : shardOf[y];
            if (shard < 0) {
                shard = 0;
                for (int k = 1; k < load.length; k++) {
                    if (load[k] < load[shard]) {
                        shard = k;
                    }
                }
            }
            shardOf[groups.joinRoots(x, y)] = shard;
            hostsOn[shard] += groups.size() - known;
            load[shard]++;
            lastA = a;
            lastB = b;
            lastC = c;
            lastD = d;
            lastShard = shard;
            return shard;
        }

        /** The hosts of the groups on {@code shard}. */
        int hostsOn(final int shard) {
            return hostsOn[shard];
        }

        /** The hosts seen, of every group. */
        int hosts() {
            return groups.size();
        }

        private int host(final long high, final long low) {
            final int known = groups.size();
            final int host = groups.host(high, low);
            if (host == known) {
                if (host == shardOf.length) {
                    shardOf = java.util.Arrays.copyOf(shardOf, host * 2);
                }
                shardOf[host] = -1;
            }
            return host;
        }
    }
}
