package org.metaroce.mrct.spi;

/** Queue pair states (MetaRoCE v1 section QP). */
public enum QpState { RESET, INIT, RTR, RTS, ERROR }
