package org.metaroce.mrct.harness.cases;

import java.util.Map;

/**
 * Expectations on what a device sent as requester on one connection, over the whole case so far: which PSNs it
 * retransmitted, how many PSNs it had in flight, the gaps between its data packets, the UDP source ports it used,
 * the switch queue it caused. Null members are not checked.
 *
 * @param connection connection name
 * @param retransmitted PSN (relative) to the exact number of retransmissions expected; with {@code exactly}, PSNs
 *     not listed must not have been retransmitted
 * @param exactly whether the retransmission map is the whole set
 * @param firstTransmissions how many distinct PSNs were sent
 * @param maxInFlight the most PSNs in flight (sent, not delivered) at any first transmission, as a matcher
 * @param minGap the least time between two consecutive data packets (ns), as a matcher
 * @param sports the number of distinct udp.sport values of data packets, as a matcher
 * @param sportsBalanced whether every window of 1024 consecutive data packets uses its sport values about equally
 *     (MR-MP-003: at most twice as often as another value, or within 10 x sqrt(1024 / N) of it)
 * @param maxQueue the switch queue's largest length (bytes), as a matcher
 * @param queueAfter with {@code queueBelow}: from this time (ns since case start) on, the queue stays below it
 * @param queueBelow bytes
 * @param line line in the case file
 */
public record TrafficExpectation(String connection, Map<Expr, Expr> retransmitted, boolean exactly,
                                 Matcher firstTransmissions, Matcher maxInFlight, Matcher minGap, Matcher sports,
                                 Boolean sportsBalanced, Matcher maxQueue, Expr queueAfter, Expr queueBelow,
                                 int line) {
}
