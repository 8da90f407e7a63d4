package org.metaroce.mrct.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.function.Function;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.metaroce.mrct.harness.spec.Specification;
import org.metaroce.mrct.socket.agent.AgentLimits;

/**
 * {@code mrct agent check} against the reference NIC's agent ({@link ReferenceServer}, what {@code mrct serve --udp}
 * runs, on loopback: no root needed) and against agents that lie or lack things, served by a few lines of this test.
 */
class AgentCheckTest {
    private static ReferenceServer server;

    @BeforeAll
    static void serve() throws Exception {
        final Specification spec = Specification.bundled();
        server = ReferenceServer.start(new ReferenceServer.Wire(null, SocketEndToEndTest.freeHighPort(), 0),
            new ReferenceServer.Port(-1, null, null), ReferenceServer.profile(null, spec), spec, Set.of(),
            new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), "check-token", AgentLimits.DEFAULTS, l -> { });
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
    }

    private static String agentAddress() {
        return "127.0.0.1:" + server.agentAddress().getPort();
    }

    @Test
    void theReferenceAgentWorksInEveryOperationItClaims() {
        final Mrct.Run run = Mrct.run("agent", "check", "--agent", agentAddress(), "--token", "check-token");
        assertThat(run.err()).isEmpty();
        assertThat(run.out()).contains("capabilities: completions, counters, memory-readback, memory-write")
            .contains("every claimed operation works");
        for (final String op : new String[] {"hello", "protocol", "reset", "allocatePd", "registerMr", "readMemory",
            "writeMemory", "createQp", "queryQp", "modifyQp", "postReceive", "pollCompletions", "counters",
            "destroyQp", "deregisterMr"}) {
            assertThat(run.lines()).as(op).anySatisfy(line -> assertThat(line.trim())
                .matches(op + " +yes +ok\\b.*"));
        }
        assertThat(run.out()).contains("QPN 0x").contains("tver 1").contains("RESET, INIT, RTR, RTS");
        assertThat(run.status()).isZero();
    }

    @Test
    void aWrongTokenIsNoAgentToCheck() {
        final Mrct.Run run = Mrct.run("agent", "check", "--agent", agentAddress(), "--token", "not-it",
            "--agent-timeout", "2s");
        assertThat(run.out()).contains("hello").contains("error").contains("no answer to hello");
        assertThat(run.status()).isEqualTo(2);
    }

    @Test
    void anAgentThatAnswersOkToEverythingGivesWrongAnswers() throws Exception {
        // claims memory read-back and completions, answers every request with an empty success
        try (FakeAgent fake = new FakeAgent(request -> {
            final String id = request.replaceAll(".*\"id\":(\\d+).*", "$1");
            if (request.contains("\"hello\"")) {
                return "{\"id\":" + id + ",\"ok\":true,\"result\":{\"version\":1,\"identity\":{\"vendor\":\"v\","
                    + "\"model\":\"m\",\"firmware\":\"f\"},\"endpoints\":{\"mac\":\"02:00:00:00:00:02\",\"ipv4\":"
                    + "\"198.51.100.2\",\"ipv6\":null},\"capabilities\":[\"memory-readback\",\"completions\"],"
                    + "\"limits\":{}}}";
            }
            if (request.contains("\"allocatePd\"")) {
                return "{\"id\":" + id + ",\"ok\":true,\"result\":{\"pd\":1}}";
            }
            if (request.contains("\"registerMr\"")) {
                return "{\"id\":" + id + ",\"ok\":true,\"result\":{\"pd\":1,\"va\":\"0x1000\",\"length\":8192,"
                    + "\"lkey\":1,\"rkey\":2,\"access\":[]}}";
            }
            if (request.contains("\"readMemory\"")) { // always eight 0xFF bytes, whatever was asked
                return "{\"id\":" + id + ",\"ok\":true,\"result\":{\"data\":\"//////////8=\"}}";
            }
            if (request.contains("\"createQp\"")) {
                return "{\"id\":" + id + ",\"ok\":true,\"result\":{\"qpn\":256}}";
            }
            if (request.contains("\"queryQp\"")) {
                return "{\"id\":" + id + ",\"ok\":true,\"result\":{\"state\":\"reset\"}}";
            }
            if (request.contains("\"pollCompletions\"")) {
                return "{\"id\":" + id + ",\"ok\":true,\"result\":{\"completions\":[]}}";
            }
            if (request.contains("\"invalidateRkey\"") || request.contains("\"qpCounters\"")) {
                return "{\"id\":" + id + ",\"ok\":false,\"error\":{\"type\":\"unsupported\",\"message\":\"no\"}}";
            }
            return "{\"id\":" + (id.startsWith("{") || id.equals(request) ? "null" : id) + ",\"ok\":true,"
                + "\"result\":{}}";
        })) {
            final Mrct.Run run = Mrct.run("agent", "check", "--agent", "127.0.0.1:" + fake.port(),
                "--agent-timeout", "5s");
            assertThat(run.lines()).anySatisfy(l -> assertThat(l.trim()).startsWith("readMemory").contains("yes")
                .contains("error").contains("answered readMemory of 64 bytes with 8"));
            assertThat(run.lines()).anySatisfy(l -> assertThat(l.trim()).startsWith("queryQp").contains("wrong answer")
                .contains("expected INIT"));
            assertThat(run.lines()).anySatisfy(l -> assertThat(l.trim()).startsWith("protocol")
                .contains("wrong answer").contains("before hello"));
            assertThat(run.lines()).as("invalidateRkey is optional").anySatisfy(l -> assertThat(l.trim())
                .matches("invalidateRkey +no +unsupported +no"));
            assertThat(run.lines()).as("postSend is not claimed, so not tried").anySatisfy(l -> assertThat(l.trim())
                .matches("postSend +no +not tried +not claimed"));
            assertThat(run.out()).contains("claimed operation(s) do not work");
            assertThat(run.status()).isEqualTo(1);
        }
    }

    /** A one-connection-at-a-time agent whose answers a function gives. */
    private static final class FakeAgent implements AutoCloseable {
        private final ServerSocket socket;
        private final Thread thread;

        FakeAgent(final Function<String, String> answers) throws IOException {
            socket = new ServerSocket(0, 4, InetAddress.getLoopbackAddress());
            thread = new Thread(() -> {
                while (!socket.isClosed()) {
                    try {
                        final Socket client = socket.accept();
                        final Thread serving = new Thread(() -> serve(client, answers), "fake-agent-client");
                        serving.setDaemon(true);
                        serving.start();
                    } catch (IOException e) {
                        // the socket closed
                    }
                }
            }, "fake-agent");
            thread.setDaemon(true);
            thread.start();
        }

        private static void serve(final Socket client, final Function<String, String> answers) {
            try (client) {
                final BufferedReader in = new BufferedReader(new InputStreamReader(client.getInputStream(),
                    StandardCharsets.UTF_8));
                final OutputStream out = client.getOutputStream();
                String line;
                while ((line = in.readLine()) != null) {
                    out.write((answers.apply(line) + "\n").getBytes(StandardCharsets.UTF_8));
                    out.flush();
                }
            } catch (IOException e) {
                // the client left
            }
        }

        int port() {
            return socket.getLocalPort();
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }
}
