package org.metaroce.mrct.harness.cases;

import java.util.List;
import org.metaroce.mrct.wire.Opcode;

/**
 * What the harness's network does to the frames between the device and the harness's peer (requester cases): a
 * one-way latency, random extra delay (which reorders), rules that drop, duplicate, delay or CE-mark the device's
 * frames, rules that drop frames on their way to the device, and an optional congested switch port. A {@code network}
 * step replaces the whole description; frames already in flight keep their fate.
 *
 * @param latency one-way delay of every frame in both directions (ns)
 * @param jitter extra delay of each device frame, uniform in [0, jitter), from the case's seed (ns); reorders
 * @param drop rules for device frames the network loses
 * @param duplicate rules for device frames delivered twice
 * @param delay rules for device frames delayed by their rule's {@code by}
 * @param ce rules for device frames that arrive CE-marked
 * @param dropToDevice rules for frames to the device (from the peer) the network loses
 * @param switchPort the congested switch port on the way to the peer, or null for none
 * @param line line in the case file
 */
public record NetworkSpec(Expr latency, Expr jitter, List<Rule> drop, List<Rule> duplicate, List<Rule> delay,
                          List<Rule> ce, List<Rule> dropToDevice, SwitchSpec switchPort, int line) {
    public NetworkSpec {
        drop = List.copyOf(drop);
        duplicate = List.copyOf(duplicate);
        delay = List.copyOf(delay);
        ce = List.copyOf(ce);
        dropToDevice = List.copyOf(dropToDevice);
    }

    /**
     * Which frames a rule applies to; every member that is set must match. Device frames are counted per
     * connection: {@code every: n} takes the n-th, 2n-th, ... data frame (first transmissions and retransmissions
     * alike), {@code first: n} the first n frames the other members select.
     *
     * @param connection connection name, or null for every connection
     * @param psns PSNs, relative to the connection's PSN space of the frame's direction (empty: any)
     * @param copy which transmission of a PSN: 1 the first, 2 the first retransmission, ...; 0 for every one
     * @param opcodes opcodes (empty: any data frame for device rules, any frame for rules to the device)
     * @param every every n-th matching frame, or null
     * @param first only the first n matching frames, or null
     * @param by the added delay, for delay rules
     * @param from only from this time (ns since the case started), or null
     * @param to only before this time (ns since the case started), or null
     * @param line line in the case file
     */
    public record Rule(String connection, List<Expr> psns, int copy, List<Opcode> opcodes, Expr every, Expr first,
                       Expr by, Expr from, Expr to, int line) {
        public Rule {
            psns = List.copyOf(psns);
            opcodes = List.copyOf(opcodes);
        }
    }

    /**
     * A switch egress port towards the peer that every device frame crosses: a FIFO drained at {@code rateMbps},
     * also fed by background traffic, marking CE on enqueue with the RED-like profile of DCQCN (no mark below
     * {@code kminBytes}, probability rising linearly to {@code pmaxPercent} at {@code kmaxBytes}, every frame above),
     * and dropping frames that would exceed {@code bufferBytes}.
     *
     * @param rateMbps drain rate (Mb/s)
     * @param kminBytes queue length where marking starts
     * @param kmaxBytes queue length where marking becomes certain
     * @param pmaxPercent marking probability at kmax, in percent
     * @param bufferBytes buffer size (tail drop above it), or null for unlimited
     * @param background constant-rate background loads sharing the port
     */
    public record SwitchSpec(Expr rateMbps, Expr kminBytes, Expr kmaxBytes, Expr pmaxPercent, Expr bufferBytes,
                             List<Background> background) {
        public SwitchSpec {
            background = List.copyOf(background);
        }
    }

    /**
     * Background traffic on the switch port, as a fluid.
     *
     * @param mbps rate
     * @param from start (ns since the case started)
     * @param to end (ns since the case started), or null for the whole case
     */
    public record Background(Expr mbps, Expr from, Expr to) {
    }
}
