package org.metaroce.mrct.cli;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import org.metaroce.mrct.wire.DecodeStatus;
import org.metaroce.mrct.wire.DecodedFrame;
import org.metaroce.mrct.wire.FrameDecoder;
import org.metaroce.mrct.wire.capture.CaptureFormatException;
import org.metaroce.mrct.wire.capture.CaptureReader;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/**
 * {@code mrct decode FILE...}: every frame of pcap or pcapng captures, decoded, as JSON Lines or aligned text.
 *
 * <p>Streaming with flat memory: one {@link CaptureReader} at a time, one reused {@link FrameDecoder}, each frame
 * written through a 64 KiB buffer as soon as it is decoded. A file that cannot be read (missing, not a capture,
 * damaged) costs one line on the error stream, {@code mrct decode: <file>: <reason>}, after the frames before the
 * damage have been written; the other files are still decoded and the exit status is 2. A failing output stream
 * ends the command at once with status 1.
 */
@Command(name = "decode", mixinStandardHelpOptions = true, sortOptions = false,
    description = {"Decodes every frame of pcap or pcapng captures: one JSON object (or one text line) per frame.",
        "Exit status: 0 every file read to its end, 2 a file could not be read (one line on stderr each), "
            + "1 the output could not be written."})
final class DecodeCommand implements Callable<Integer> {
    private static final int OUTPUT_BUFFER = 1 << 16;

    @ParentCommand
    private Main main;

    @Parameters(arity = "1..*", paramLabel = "FILE", description = "pcap or pcapng capture files")
    private List<String> files;

    @Option(names = "--format", paramLabel = "json|text", defaultValue = "json",
        description = "json: one compact JSON object per frame (default); text: one aligned line per frame")
    private DecodeFormat format;

    @Option(names = "--roce-only", description = "leave out frames that are not RoCE (malformed RoCE frames stay)")
    private boolean roceOnly;

    @Option(names = "--comments", description = "show each frame's pcapng comment (mrct evidence names the case, "
        + "step, direction and note there): a JSON key \"comment\" (null when none), or an indented line in text")
    private boolean comments;

    @Override
    public Integer call() throws IOException {
        final OutputStream out = new BufferedOutputStream(new ConsoleOutput(main.out()), OUTPUT_BUFFER);
        final FrameSink sink = format.sink(out, files.size() > 1);
        final FrameDecoder decoder = new FrameDecoder();
        int status = ExitStatus.OK;
        try {
            for (final String name : files) {
                final String problem = decodeFile(name, decoder, sink);
                if (problem != null) {
                    sink.flush();
                    out.flush();
                    main.err().println("mrct decode: " + name + ": " + problem);
                    status = ExitStatus.UNREADABLE;
                }
            }
            sink.flush();
            out.flush();
        } catch (ConsoleOutput.OutputFailedException e) {
            if (e.closedPipe()) {
                return status; // the reader has what it wanted (| head): a quiet end
            }
            main.err().println("mrct decode: " + e.getMessage());
            return ExitStatus.FAILURE;
        }
        return status;
    }

    /** Decodes one file into the sink; returns why it could not be read to its end, or null. */
    private String decodeFile(final String name, final FrameDecoder decoder, final FrameSink sink)
            throws ConsoleOutput.OutputFailedException {
        try {
            final Path path = Path.of(name);
            if (Files.isDirectory(path)) {
                return "is a directory";
            }
            try (CaptureReader reader = CaptureReader.open(path)) {
                sink.startFile(name);
                decodeRecords(reader, decoder, sink);
            }
            return null;
        } catch (ConsoleOutput.OutputFailedException e) {
            throw e;
        } catch (CaptureFormatException e) {
            return "byte " + e.byteOffset() + " (record " + e.recordNumber() + "): " + e.reason();
        } catch (NoSuchFileException e) {
            return "no such file";
        } catch (AccessDeniedException e) {
            return "permission denied";
        } catch (InvalidPathException e) {
            return "not a valid path: " + e.getReason();
        } catch (IOException e) {
            return e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
        }
    }

    private void decodeRecords(final CaptureReader reader, final FrameDecoder decoder, final FrameSink sink)
            throws IOException {
        boolean first = true;
        long origin = 0;
        while (reader.next()) {
            final long timestamp = reader.timestampNanos();
            if (first) {
                origin = timestamp;
                first = false;
            }
            if (reader.linkType() != CaptureReader.LINKTYPE_ETHERNET) {
                if (!roceOnly) {
                    if (comments) {
                        sink.comment(reader.comment());
                    }
                    sink.undecoded(reader.recordNumber(), timestamp, origin, reader.linkType(),
                        reader.capturedLength());
                }
                continue;
            }
            final DecodedFrame frame = decoder.decode(reader.buffer(), reader.offset(), reader.capturedLength());
            if (roceOnly && frame.status() == DecodeStatus.NOT_ROCE) {
                continue;
            }
            if (comments) {
                sink.comment(reader.comment());
            }
            sink.frame(frame, reader.recordNumber(), timestamp, origin);
        }
    }
}
