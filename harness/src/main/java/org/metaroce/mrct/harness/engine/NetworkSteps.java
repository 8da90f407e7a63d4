package org.metaroce.mrct.harness.engine;

import org.metaroce.mrct.harness.cases.Step;

/**
 * The steps of requester cases about the network and what crossed it: {@code network} (what the harness's network
 * does to frames between the device and the peer), {@code expect_traffic} and {@code expect_rate} (judged on every
 * frame so far, after the clock caught up with now).
 */
final class NetworkSteps {
    private final Names names;
    private final CaseWorld world;
    private final RequesterSteps requesterSteps;
    private final FramePump pump;

    NetworkSteps(final Names names, final CaseWorld world, final RequesterSteps requesterSteps,
                 final FramePump pump) {
        this.names = names;
        this.world = world;
        this.requesterSteps = requesterSteps;
        this.pump = pump;
    }

    void network(final Step.Network n) {
        if (world.network() == null) {
            throw new IllegalArgumentException("a network step needs a connection with peer: true");
        }
        world.network().configure(n.network(), world.connections(), names::eval);
    }

    void expectTraffic(final Step.ExpectTraffic t) {
        pump.pollUntil(pump.now());
        requesterSteps.expectTraffic(t.traffic(), world.connection(t.traffic().connection()), world.network(),
            pump.now());
    }

    void expectRate(final Step.ExpectRate r) {
        pump.pollUntil(pump.now());
        requesterSteps.expectRate(r.rate(), world.connection(r.rate().connection()), pump.now());
    }
}
