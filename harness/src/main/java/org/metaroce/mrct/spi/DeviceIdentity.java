package org.metaroce.mrct.spi;

/**
 * Who the device under test is, as reports record it.
 *
 * @param vendor maker
 * @param model model or product name
 * @param firmware firmware or software version
 */
public record DeviceIdentity(String vendor, String model, String firmware) {
}
