import { describe, expect, it } from "vitest";
import { isPublicAddress } from "./address-guard.server";

describe("isPublicAddress", () => {
  it("takes public IPv4 and global unicast IPv6, bracketed or not", () => {
    for (const address of ["8.8.8.8", "1.1.1.1", "2606:4700:4700::1111", "[2a00:1450:4001:80b::200e]", "::ffff:8.8.8.8"]) {
      expect(isPublicAddress(address), address).toBe(true);
    }
  });

  it("refuses IPv4-compatible IPv6 (::/96), which ipaddr.js calls unicast (security-3 P11)", () => {
    for (const address of ["::7f00:1", "[::7f00:1]", "::127.0.0.1", "::a00:1", "::808:808", "::8.8.8.8"]) {
      expect(isPublicAddress(address), address).toBe(false);
    }
  });

  it("refuses every other form the audit tried: loopback, private, link-local, NAT64, 6to4, Teredo, ULA, multicast, unspecified", () => {
    for (const address of [
      "127.0.0.1",
      "10.0.0.1",
      "172.16.0.1",
      "192.168.1.1",
      "169.254.169.254",
      "100.64.0.1",
      "0.0.0.0",
      "::1",
      "::",
      "::ffff:127.0.0.1",
      "::ffff:169.254.169.254",
      "fe80::1",
      "fe80::1%eth0",
      "fc00::1",
      "fd12:3456::1",
      "64:ff9b::7f00:1",
      "2002:7f00:1::1",
      "2001:0:4136:e378:8000:63bf:3fff:fdd2",
      "2001:db8::1",
      "ff02::1",
      "100::1",
      "not an address",
    ]) {
      expect(isPublicAddress(address), address).toBe(false);
    }
  });
});
