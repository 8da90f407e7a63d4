package org.metaroce.mrct.reference.internal;

/**
 * A QP's DCQCN constants (MetaRoCE v1 section 14.3), rates in Mb/s.
 *
 * @param lineRateMbps line rate: initial and largest rate
 * @param g alpha gain
 * @param alphaInit initial alpha
 * @param alphaTimerNs alpha decay period K
 * @param rateTimerNs rate increase timer period T
 * @param byteCounter byte counter B
 * @param f fast recovery threshold F
 * @param raiMbps additive increase
 * @param rhaiMbps hyper increase
 * @param minRateMbps lowest rate
 */
record DcqcnParameters(double lineRateMbps, double g, double alphaInit, long alphaTimerNs, long rateTimerNs,
                       long byteCounter, int f, double raiMbps, double rhaiMbps, double minRateMbps) {
}
