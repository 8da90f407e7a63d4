package org.metaroce.mrct.socket.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.metaroce.mrct.spi.Access;
import org.metaroce.mrct.spi.AdapterException;
import org.metaroce.mrct.spi.QpAttributes;

/** Bad requests, limits and authentication: every one answered with a typed error, and the agent goes on. */
class AgentRobustnessTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final FakeDevice device = new FakeDevice();
    private AgentServer server;
    private InetSocketAddress address;

    private void start(final AgentLimits limits, final String token) throws IOException {
        server = new AgentServer(device, AgentRoundTripTest.INFO, limits, token, line -> { });
        address = server.start(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
    }

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
    }

    /** A raw protocol connection. */
    private final class Raw implements AutoCloseable {
        final Socket socket;
        final BufferedReader in;
        final OutputStream out;

        Raw() throws IOException {
            socket = new Socket(address.getAddress(), address.getPort());
            socket.setSoTimeout(5000);
            in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
            out = socket.getOutputStream();
        }

        JsonNode send(final String line) throws IOException {
            out.write((line + "\n").getBytes(StandardCharsets.UTF_8));
            out.flush();
            final String answer = in.readLine();
            assertThat(answer).as("an answer to " + line).isNotNull();
            return JSON.readTree(answer);
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }

    private static void assertError(final JsonNode answer, final String type, final String message) {
        assertThat(answer.path("ok").asBoolean(true)).as(answer.toString()).isFalse();
        assertThat(answer.path("error").path("type").asText()).as(answer.toString()).isEqualTo(type);
        assertThat(answer.path("error").path("message").asText()).as(answer.toString()).contains(message);
    }

    @Test
    void everythingBeforeHelloIsRefusedWithAuth() throws IOException {
        start(AgentLimits.DEFAULTS, null);
        try (Raw raw = new Raw()) {
            assertError(raw.send("{\"id\":1,\"op\":\"allocatePd\"}"), "auth", "hello first");
            assertThat(device.calls).isEmpty();
            assertThat(raw.send("{\"id\":2,\"op\":\"hello\",\"args\":{\"version\":1}}").path("ok").asBoolean())
                .isTrue();
            final JsonNode answer = raw.send("{\"id\":3,\"op\":\"allocatePd\"}");
            assertThat(answer.path("id").asLong()).isEqualTo(3);
            assertThat(answer.path("result").path("pd").asInt()).isEqualTo(7);
        }
    }

    @Test
    void aWrongOrMissingTokenIsRefusedInConstantTimeAndNothingRuns() throws IOException {
        start(AgentLimits.DEFAULTS, "right-token");
        try (Raw raw = new Raw()) {
            assertError(raw.send("{\"id\":1,\"op\":\"hello\",\"args\":{}}"), "auth", "needs a token");
            assertError(raw.send("{\"id\":2,\"op\":\"hello\",\"args\":{\"token\":\"wrong\"}}"), "auth", "wrong token");
            assertError(raw.send("{\"id\":3,\"op\":\"reset\"}"), "auth", "with the token");
            assertThat(raw.send("{\"id\":4,\"op\":\"hello\",\"args\":{\"token\":\"right-token\"}}").path("ok")
                .asBoolean()).isTrue();
            assertThat(raw.send("{\"id\":5,\"op\":\"reset\"}").path("ok").asBoolean()).isTrue();
        }
        assertThat(device.calls).containsExactly("reset");
    }

    @Test
    void theClientSaysWhenTheTokenIsWrong() throws IOException {
        start(AgentLimits.DEFAULTS, "right-token");
        try (AgentClient client = new AgentClient(address, "nope", Duration.ofSeconds(5), 1)) {
            assertThatThrownBy(client::hello).isInstanceOf(AdapterException.class).hasMessageContaining("wrong token");
        }
        try (AgentClient client = new AgentClient(address, null, Duration.ofSeconds(5), 1)) {
            assertThatThrownBy(client::hello).isInstanceOf(AdapterException.class).hasMessageContaining("--token");
        }
    }

    @Test
    void malformedRequestsAreAnsweredAndTheConnectionGoesOn() throws IOException {
        start(AgentLimits.DEFAULTS, null);
        try (Raw raw = new Raw()) {
            raw.send("{\"id\":0,\"op\":\"hello\"}");
            assertError(raw.send("{not json"), "bad-request", "malformed JSON");
            assertError(raw.send("[1,2,3]"), "bad-request", "JSON object");
            assertError(raw.send("{\"op\":\"reset\"}"), "bad-request", "'id'");
            assertError(raw.send("{\"id\":\"seven\",\"op\":\"reset\"}"), "bad-request", "'id'");
            assertError(raw.send("{\"id\":1,\"op\":42}"), "bad-request", "'op'");
            assertError(raw.send("{\"id\":2,\"op\":\"format_disk\"}"), "bad-request", "unknown op 'format_disk'");
            assertError(raw.send("{\"id\":3,\"op\":\"queryQp\",\"args\":{}}"), "bad-request", "missing argument 'qpn'");
            assertError(raw.send("{\"id\":4,\"op\":\"queryQp\",\"args\":{\"qpn\":\"x\"}}"), "bad-request", "qpn");
            assertError(raw.send("{\"id\":5,\"op\":\"queryQp\",\"args\":{\"qpn\":1e40}}"), "bad-request", "qpn");
            assertError(raw.send("{\"id\":6,\"op\":\"modifyQp\",\"args\":{\"qpn\":1,\"state\":\"FLYING\"}}"),
                "bad-request", "reset, init, rtr, rts, error");
            assertError(raw.send("{\"id\":7,\"op\":\"createQp\",\"args\":{\"attributes\":{\"pmtu\":\"big\"}}}"),
                "bad-request", "pmtu");
            assertError(raw.send("{\"id\":8,\"op\":\"createQp\",\"args\":{\"attributes\":{\"colour\":1}}}"),
                "bad-request", "unknown QP attribute 'colour'");
            assertError(raw.send("{\"id\":9,\"op\":\"registerMr\",\"args\":{\"pd\":1,\"length\":4,\"access\":"
                + "[\"remote_teleport\"]}}"), "bad-request", "remote_teleport");
            assertError(raw.send("{\"id\":10,\"op\":\"writeMemory\",\"args\":{\"va\":\"0x10\",\"data\":\"***\"}}"),
                "bad-request", "base64");
            assertError(raw.send("{\"id\":11,\"op\":\"readMemory\",\"args\":{\"va\":\"0x1g\",\"length\":4}}"),
                "bad-request", "'va'");
            assertError(raw.send("{\"id\":12,\"op\":\"readMemory\",\"args\":{\"va\":\"0x10000000000000000\","
                + "\"length\":4}}"), "bad-request", "64 bits");
            assertError(raw.send("{\"id\":13,\"op\":\"hello\",\"args\":{\"version\":2}}"), "bad-request",
                "version 1");
            assertThat(raw.send("{\"id\":14,\"op\":\"allocatePd\"}").path("result").path("pd").asInt()).isEqualTo(7);
        }
        assertThat(device.calls).containsExactly("allocatePd");
    }

    @Test
    void limitsAreEnforcedWithoutChangingAnything() throws IOException {
        start(new AgentLimits(2, 10_000, 1000, 4), null);
        try (AgentClient client = new AgentClient(address, null, Duration.ofSeconds(5), 1)) {
            client.createQp(QpAttributes.empty());
            final int second = client.createQp(QpAttributes.empty());
            assertThatThrownBy(() -> client.createQp(QpAttributes.empty())).isInstanceOf(AdapterException.class)
                .hasMessageContaining("limit").hasMessageContaining("2 QPs");
            client.destroyQp(second);
            client.createQp(QpAttributes.empty());
            final Set<Access> rights = EnumSet.of(Access.REMOTE_WRITE);
            client.registerMr(1, 6000, rights);
            assertThatThrownBy(() -> client.registerMr(1, 6000, rights)).isInstanceOf(AdapterException.class)
                .hasMessageContaining("limit").hasMessageContaining("10000 registered bytes");
            assertThatThrownBy(() -> client.readMemory(0, 1001)).isInstanceOf(AdapterException.class)
                .hasMessageContaining("1000 bytes per transfer");
            assertThatThrownBy(() -> client.writeMemory(0, new byte[2000])).isInstanceOf(AdapterException.class)
                .hasMessageContaining("1000 bytes per transfer");
            client.reset();
            client.registerMr(1, 9000, rights);
            client.createQp(QpAttributes.empty());
            client.createQp(QpAttributes.empty());
        }
        assertThat(device.calls).filteredOn(c -> c.startsWith("registerMr")).hasSize(2);
        assertThat(device.calls).filteredOn(c -> c.equals("createQp")).hasSize(5);
        assertThat(device.calls).doesNotContain("readMemory", "writeMemory");
    }

    @Test
    void anOverlongLineIsSkippedAndAnswered() throws IOException {
        start(new AgentLimits(8, 1 << 20, 16, 4), null);
        try (Raw raw = new Raw()) {
            raw.send("{\"id\":0,\"op\":\"hello\"}");
            final String huge = "{\"id\":1,\"op\":\"writeMemory\",\"args\":{\"va\":0,\"data\":\"" + "A".repeat(200_000)
                + "\"}}";
            assertError(raw.send(huge), "limit", "longer than");
            assertThat(raw.send("{\"id\":2,\"op\":\"allocatePd\"}").path("ok").asBoolean()).isTrue();
        }
    }

    @Test
    void oneBadClientDoesNotStopAnother() throws IOException {
        start(AgentLimits.DEFAULTS, null);
        try (AgentClient good = new AgentClient(address, null, Duration.ofSeconds(5), 1)) {
            good.hello();
            try (Raw bad = new Raw()) {
                bad.out.write("garbage without end".getBytes(StandardCharsets.UTF_8));
                bad.out.write(new byte[] {(byte) 0xFF, (byte) 0xFE, '\n'});
                bad.out.flush();
                assertThat(bad.in.readLine()).contains("bad-request");
                assertThat(good.allocatePd()).isEqualTo(7);
                bad.socket.setSoLinger(true, 0);
            }
            assertThat(good.allocatePd()).isEqualTo(7);
        }
    }

    @Test
    void clientsBeyondTheLimitAreToldSoAndClosed() throws IOException {
        start(new AgentLimits(8, 1 << 20, 1 << 20, 1), null);
        try (AgentClient first = new AgentClient(address, null, Duration.ofSeconds(5), 1)) {
            first.hello();
            try (AgentClient second = new AgentClient(address, null, Duration.ofSeconds(5), 1)) {
                assertThatThrownBy(second::hello).isInstanceOf(AdapterException.class)
                    .hasMessageContaining("at most 1 clients");
            }
            assertThat(first.allocatePd()).isEqualTo(7);
        }
    }

    @Test
    void beyondLoopbackATokenIsRequired() {
        final AgentServer open = new AgentServer(device, AgentRoundTripTest.INFO, AgentLimits.DEFAULTS, null,
            line -> { });
        assertThatThrownBy(() -> open.start(new InetSocketAddress("0.0.0.0", 0)))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("needs a shared token");
        open.close();
    }

    @Test
    void aRefusedConnectionIsABoundedAdapterException() throws IOException {
        final int port;
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = probe.getLocalPort();
        }
        try (AgentClient client = new AgentClient(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), null,
            Duration.ofSeconds(2), 3)) {
            final long start = System.nanoTime();
            assertThatThrownBy(client::reset).isInstanceOf(AdapterException.class)
                .hasMessageContaining("after 3 attempt(s)").hasMessageContaining("connection refused");
            assertThat(System.nanoTime() - start).isLessThan(10_000_000_000L);
        }
    }

    @Test
    void anAgentThatDoesNotAnswerIsATimeout() throws Exception {
        try (ServerSocket silent = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            final Thread acceptor = new Thread(() -> {
                try (Socket s = silent.accept()) {
                    s.getInputStream().read(new byte[1 << 16]);
                    Thread.sleep(3000);
                } catch (IOException | InterruptedException ignored) {
                    // the test is over
                }
            });
            acceptor.setDaemon(true);
            acceptor.start();
            try (AgentClient client = new AgentClient(new InetSocketAddress(InetAddress.getLoopbackAddress(),
                silent.getLocalPort()), null, Duration.ofMillis(300), 1)) {
                assertThatThrownBy(client::reset).isInstanceOf(AdapterException.class)
                    .hasMessageContaining("cannot reach").hasMessageContaining("timed out");
            }
        }
    }

    @Test
    void connectionsThatNeverSayHelloCannotLockTheTokenHolderOut() throws IOException {
        start(new AgentLimits(16, 1 << 20, 1 << 16, 2), "s3cret");
        final List<Raw> idle = new ArrayList<>();
        try {
            // more silent connections than the pool for greetings and the client places together
            for (int i = 0; i < AgentServer.MAX_GREETING + 4; i++) {
                idle.add(new Raw());
            }
            try (Raw first = new Raw(); Raw second = new Raw(); Raw third = new Raw()) {
                final String hello = "{\"id\":1,\"op\":\"hello\",\"args\":{\"version\":1,\"token\":\"s3cret\"}}";
                assertThat(first.send(hello).path("ok").asBoolean()).isTrue();
                assertThat(second.send(hello).path("ok").asBoolean()).isTrue();
                assertError(third.send(hello), "limit", "at most 2 clients at once");
                assertThat(third.in.readLine()).as("the refused connection is closed").isNull();
                assertThat(first.send("{\"id\":2,\"op\":\"allocatePd\"}").path("ok").asBoolean()).isTrue();
            }
            // the oldest silent connections were pushed out to make room
            assertThat(idle.get(0).in.readLine()).isNull();
        } finally {
            for (final Raw raw : idle) {
                raw.close();
            }
        }
    }

    @Test
    void aConnectionThatDoesNotSayHelloInTimeIsClosed() throws IOException {
        start(AgentLimits.DEFAULTS, null);
        try (Raw silent = new Raw()) {
            silent.socket.setSoTimeout(AgentServer.HELLO_TIMEOUT_MILLIS * 4);
            // read() returns end of stream once the agent gives up on the greeting (bounded by the socket timeout)
            assertThat(silent.in.readLine()).isNull();
        }
    }
}
