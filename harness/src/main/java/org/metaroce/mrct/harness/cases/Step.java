package org.metaroce.mrct.harness.cases;

import java.util.List;
import java.util.Map;
import org.metaroce.mrct.spi.QpAttribute;
import org.metaroce.mrct.spi.QpState;

/**
 * The steps a case is made of. Every step knows the line it was written on, and {@link #describe()} gives the one-line
 * form failure messages quote.
 */
public sealed interface Step {
    /** Line in the case file. */
    int line();

    /** The step as one line of text. */
    String describe();

    /**
     * Calls the visitor's method for this step's kind. Every kind has its own method in {@link Visitor}, so code that
     * handles steps through a visitor does not compile until it handles a new kind.
     */
    <R> R accept(Visitor<R> visitor);

    /**
     * One method per kind of step (pattern matching for switch is not available at Java 17): an implementation handles
     * every kind or does not compile.
     *
     * @param <R> what a visit returns ({@link Void} for none)
     */
    interface Visitor<R> {
        /** A {@link Send} step. */
        R visit(Send step);

        /** A {@link Message} step. */
        R visit(Message step);

        /** An {@link Expect} step. */
        R visit(Expect step);

        /** An {@link ExpectUnordered} step. */
        R visit(ExpectUnordered step);

        /** An {@link ExpectNone} step. */
        R visit(ExpectNone step);

        /** An {@link Advance} step. */
        R visit(Advance step);

        /** An {@link ExpectMemory} step. */
        R visit(ExpectMemory step);

        /** An {@link ExpectCompletions} step. */
        R visit(ExpectCompletions step);

        /** An {@link ExpectCounters} step. */
        R visit(ExpectCounters step);

        /** An {@link ExpectQp} step. */
        R visit(ExpectQp step);

        /** A {@link PostReceive} step. */
        R visit(PostReceive step);

        /** An {@link Invalidate} step. */
        R visit(Invalidate step);

        /** A {@link ModifyQp} step. */
        R visit(ModifyQp step);

        /** A {@link WriteMemory} step. */
        R visit(WriteMemory step);

        /** A {@link Repeat} step. */
        R visit(Repeat step);

        /** A {@link When} step. */
        R visit(When step);

        /** A {@link Flow} step. */
        R visit(Flow step);

        /** A {@link PostSend} step. */
        R visit(PostSend step);

        /** A {@link Network} step. */
        R visit(Network step);

        /** An {@link ExpectTraffic} step. */
        R visit(ExpectTraffic step);

        /** An {@link ExpectRate} step. */
        R visit(ExpectRate step);
    }

    /** Send one frame. */
    record Send(PacketSpec packet) implements Step {
        @Override
        public int line() {
            return packet.line();
        }

        @Override
        public String describe() {
            return "send " + (packet.opcode() == null ? "frame" : packet.opcode())
                + (packet.psn() != null ? " psn " + packet.psn() : "");
        }

        @Override
        public <R> R accept(final Visitor<R> visitor) {
            return visitor.visit(this);
        }
    }

    /** Send a segmented message. */
    record Message(MessageSpec message) implements Step {
        @Override
        public int line() {
            return message.line();
        }

        @Override
        public String describe() {
            return "message " + message.op() + " of " + message.length() + " bytes"
                + (message.order().isEmpty() ? "" : " order " + message.order())
                + (message.drop().isEmpty() ? "" : " drop " + message.drop());
        }

        @Override
        public <R> R accept(final Visitor<R> visitor) {
            return visitor.visit(this);
        }
    }

    /**
     * Expect the next frame (or, with {@code skipOthers}, the next matching frame) to match a template, within a time
     * window measured from the previous step.
     */
    /**
     * Expects one frame.
     *
     * @param rule the rule this expectation checks when the case cites several that the failed field could fall under
     *     (one of the case's rules; blame prefers it among the candidates), or null
     */
    record Expect(FrameTemplate template, Expr within, Expr after, boolean skipOthers, String label, String rule,
                  int line) implements Step {
        @Override
        public String describe() {
            return "expect " + template.summary() + (within != null ? " within " + within : "");
        }

        @Override
        public <R> R accept(final Visitor<R> visitor) {
            return visitor.visit(this);
        }
    }

    /** Expect several frames, in any order. */
    record ExpectUnordered(List<FrameTemplate> templates, Expr within, int line) implements Step {
        @Override
        public String describe() {
            return "expect in any order " + templates.size() + " frames";
        }

        @Override
        public <R> R accept(final Visitor<R> visitor) {
            return visitor.visit(this);
        }
    }

    /** Expect no frame (or none matching {@code filter}) for a duration. */
    record ExpectNone(Expr duration, FrameTemplate filter, String rule, int line) implements Step {
        @Override
        public String describe() {
            return "expect no " + (filter == null ? "frame" : filter.summary()) + " for " + duration;
        }

        @Override
        public <R> R accept(final Visitor<R> visitor) {
            return visitor.visit(this);
        }
    }

    /** Let time pass; frames that arrive wait for later expectations. */
    record Advance(Expr duration, int line) implements Step {
        @Override
        public String describe() {
            return "advance " + duration;
        }

        @Override
        public <R> R accept(final Visitor<R> visitor) {
            return visitor.visit(this);
        }
    }

    /**
     * Expect region memory to hold a pattern ({@code equals}), to equal the harness's model of it ({@code model}), or
     * to be untouched since setup ({@code untouched}).
     */
    record ExpectMemory(String region, Expr offset, Expr length, PayloadSpec equals, boolean model, boolean untouched,
                        String rule, int line) implements Step {
        @Override
        public String describe() {
            return "expect memory of " + region + (offset != null ? " at " + offset : "")
                + (model ? " equal to the model" : untouched ? " untouched" : " to be " + equals.pattern());
        }

        @Override
        public <R> R accept(final Visitor<R> visitor) {
            return visitor.visit(this);
        }
    }

    /** Poll the device's completions of a connection and compare them, in order. */
    record ExpectCompletions(String connection, List<CompletionTemplate> entries, boolean model, boolean exact,
                             int line) implements Step {
        @Override
        public String describe() {
            return "expect " + (model ? "the model's" : entries.size()) + " completions on " + connection;
        }

        @Override
        public <R> R accept(final Visitor<R> visitor) {
            return visitor.visit(this);
        }
    }

    /**
     * Compare counters, as differences since the case started: the device totals, or one QP's own counters when
     * {@code connection} is set.
     */
    record ExpectCounters(String connection, Map<String, Expr> values, boolean exact, int line) implements Step {
        @Override
        public String describe() {
            return "expect " + (connection == null ? "" : connection + " ") + "counters " + values.keySet()
                + (exact ? " and no other change" : "");
        }

        @Override
        public <R> R accept(final Visitor<R> visitor) {
            return visitor.visit(this);
        }
    }

    /** Expect a QP state. */
    record ExpectQp(String connection, QpState state, int line) implements Step {
        @Override
        public String describe() {
            return "expect " + connection + " in " + state;
        }

        @Override
        public <R> R accept(final Visitor<R> visitor) {
            return visitor.visit(this);
        }
    }

    /** Post receive WQEs. */
    record PostReceive(String connection, String region, Expr offset, Expr length, Expr count, int line)
        implements Step {
        @Override
        public String describe() {
            return "post " + count + " receive(s) of " + length + " bytes on " + connection;
        }

        @Override
        public <R> R accept(final Visitor<R> visitor) {
            return visitor.visit(this);
        }
    }

    /** Invalidate a region's R_Key. */
    record Invalidate(String region, int line) implements Step {
        @Override
        public String describe() {
            return "invalidate " + region;
        }

        @Override
        public <R> R accept(final Visitor<R> visitor) {
            return visitor.visit(this);
        }
    }

    /** Move a QP to another state; with {@code rejected}, expect the device to refuse (MR-QP-009). */
    record ModifyQp(String connection, QpState state, Map<QpAttribute, AttributeValue> attributes, boolean rejected,
                    int line)
        implements Step {
        @Override
        public String describe() {
            return "modify " + connection + " to " + state + (rejected ? " (must be rejected)" : "");
        }

        @Override
        public <R> R accept(final Visitor<R> visitor) {
            return visitor.visit(this);
        }
    }

    /** Write region memory through the control plane. */
    record WriteMemory(String region, Expr offset, PayloadSpec data, int line) implements Step {
        @Override
        public String describe() {
            return "write memory of " + region;
        }

        @Override
        public <R> R accept(final Visitor<R> visitor) {
            return visitor.visit(this);
        }
    }

    /** Repeat steps with a loop variable from {@code from} to {@code to} inclusive. */
    record Repeat(String variable, Expr from, Expr to, Expr by, List<Step> steps, int line) implements Step {
        @Override
        public String describe() {
            return "repeat " + variable + " = " + from + " .. " + to;
        }

        @Override
        public <R> R accept(final Visitor<R> visitor) {
            return visitor.visit(this);
        }
    }

    /**
     * Steps that run only when the device claims every PICS item of {@code pics} and {@code condition} (an expression
     * over the profile's parameters and the case's names) is not 0; otherwise {@code otherwise} runs (possibly no
     * step). A case about one feature gates in this way the steps that need another one (an atomic step in a framing
     * case) or a parameter value (a PMTU, a window), so that it applies to every legal profile.
     *
     * @param pics PICS items the device must claim (empty: none)
     * @param condition the condition, or null for none
     * @param steps what runs when the device claims the items and the condition holds
     * @param otherwise what runs instead (empty: nothing)
     * @param line line in the case file
     */
    record When(List<String> pics, Expr condition, List<Step> steps, List<Step> otherwise, int line) implements Step {
        public When {
            pics = List.copyOf(pics);
            steps = List.copyOf(steps);
            otherwise = List.copyOf(otherwise);
        }

        @Override
        public String describe() {
            return "when" + (pics.isEmpty() ? "" : " pics " + pics) + (condition == null ? "" : " if " + condition);
        }

        @Override
        public <R> R accept(final Visitor<R> visitor) {
            return visitor.visit(this);
        }
    }

    /** Send an interleaved multi-message flow, checking the responder's invariants on every frame. */
    record Flow(FlowSpec flow) implements Step {
        @Override
        public int line() {
            return flow.line();
        }

        @Override
        public String describe() {
            return "flow of " + flow.messages().size() + " messages in " + flow.packets().size() + " packets";
        }

        @Override
        public <R> R accept(final Visitor<R> visitor) {
            return visitor.visit(this);
        }
    }

    /**
     * Post send work requests on the device (the device as requester): {@code count} WQEs, the k-th with its local and
     * remote offsets advanced by k times {@code stride}.
     *
     * @param connection connection name
     * @param op the kind of message
     * @param localRegion the local buffer's region on the device (null: none, for zero-length messages)
     * @param localOffset offset in it
     * @param length bytes (8 for atomics)
     * @param remoteRegion the remote buffer's region (a peer region, or a device region's name for its numbers)
     * @param remoteOffset offset in it
     * @param remoteVa remote address when no region is named
     * @param rkey remote key when no region is named
     * @param immediate immediate data (send_imm, write_imm)
     * @param invalidate region whose R_Key a send_inv invalidates
     * @param swapAdd swap value (cmp_swap) or addend (fetch_add)
     * @param compare compare value (cmp_swap)
     * @param wrId work request ID (null: numbered from 1 per connection)
     * @param signaled whether success is reported by a completion
     * @param fence the fence flag (section 12.6)
     * @param solicited the solicited-event flag
     * @param count how many such WQEs
     * @param stride offset step between them (null: the length)
     * @param line line in the case file
     */
    record PostSend(String connection, MessageOp op, String localRegion, Expr localOffset, Expr length,
                    String remoteRegion, Expr remoteOffset, Expr remoteVa, Expr rkey, Expr immediate,
                    String invalidate, Expr swapAdd, Expr compare, Expr wrId, boolean signaled, boolean fence,
                    boolean solicited, Expr count, Expr stride, int line) implements Step {
        @Override
        public String describe() {
            return "post " + (count == null ? "" : count + " x ") + op + " of " + length + " bytes on " + connection;
        }

        @Override
        public <R> R accept(final Visitor<R> visitor) {
            return visitor.visit(this);
        }
    }

    /** Replace what the harness's network does to frames between the device and the peer. */
    record Network(NetworkSpec network) implements Step {
        @Override
        public int line() {
            return network.line();
        }

        @Override
        public String describe() {
            return "network" + (network.drop().isEmpty() ? "" : " dropping " + network.drop().size() + " rule(s)")
                + (network.switchPort() == null ? "" : " through a congested switch");
        }

        @Override
        public <R> R accept(final Visitor<R> visitor) {
            return visitor.visit(this);
        }
    }

    /** Expectations on what the device sent as requester (retransmissions, in flight, gaps, ports, queue). */
    record ExpectTraffic(TrafficExpectation traffic) implements Step {
        @Override
        public int line() {
            return traffic.line();
        }

        @Override
        public String describe() {
            return "expect traffic of " + traffic.connection()
                + (traffic.retransmitted() == null ? "" : " retransmitting " + traffic.retransmitted().keySet());
        }

        @Override
        public <R> R accept(final Visitor<R> visitor) {
            return visitor.visit(this);
        }
    }

    /** Expectations on a connection's sending rate. */
    record ExpectRate(RateExpectation rate) implements Step {
        @Override
        public int line() {
            return rate.line();
        }

        @Override
        public String describe() {
            return "expect the rate of " + rate.connection() + (rate.model() ? " to follow DCQCN" : "")
                + (rate.mbps() == null ? "" : " in Mb/s " + rate.mbps());
        }

        @Override
        public <R> R accept(final Visitor<R> visitor) {
            return visitor.visit(this);
        }
    }
}
