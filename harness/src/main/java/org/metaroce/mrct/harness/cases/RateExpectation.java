package org.metaroce.mrct.harness.cases;

/**
 * An expectation on the rate of a connection's data packets (section 14.4 window rates: 16 packets over the time
 * from the first to the seventeenth).
 *
 * @param connection connection name
 * @param from start of the interval (ns since the case started; null: the start)
 * @param to end of the interval (ns since the case started; null: now)
 * @param model whether every window must follow the harness's DCQCN model of the QP, computed from the profile's
 *     constants and the CNPs the device received: at most the largest model Rc during the window plus
 *     rate_tolerance_pct (MR-CC-017), and, since the case keeps the QP backlogged, at least the smallest model Rc
 *     minus rate_tolerance_pct
 * @param mbps matcher for the mean rate over the interval (Mb/s), or null
 * @param line line in the case file
 */
public record RateExpectation(String connection, Expr from, Expr to, boolean model, Matcher mbps, int line) {
}
