/**
 * The SSRF guard of outgoing webhooks: a target on a private, loopback, link-local, shared, multicast or
 * reserved address is refused unless WEBHOOK_ALLOW_PRIVATE_TARGETS is set. Checked when a webhook is saved
 * (literal IPs and what the name resolves to then) and again on every connection (the resolver callback given to
 * http.request), so a name re-pointed later at an internal address (DNS rebinding) is refused too.
 */
import dns, { type LookupAddress } from "node:dns";
import { BlockList, isIP } from "node:net";

const blocked = new BlockList();
for (const [network, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const)
  blocked.addSubnet(network, prefix, "ipv4");
for (const [network, prefix] of [
  ["::", 128],
  ["::1", 128],
  ["64:ff9b::", 96],
  ["100::", 64],
  ["2001:db8::", 32],
  ["fc00::", 7],
  ["fe80::", 10],
  ["ff00::", 8],
] as const)
  blocked.addSubnet(network, prefix, "ipv6");

export class PrivateTargetError extends Error {
  readonly code = "ERR_WEBHOOK_PRIVATE_TARGET";
  constructor(readonly address: string) {
    super(`webhook target ${address} is a private or local address`);
  }
}

/** Whether an IP address (v4, v6 or v4-mapped v6) is not on the public internet. */
export function isPrivateAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return isPrivateAddress(mapped[1]!);
  const family = isIP(address);
  if (family === 4) return blocked.check(address, "ipv4");
  if (family === 6) return blocked.check(address, "ipv6");
  return true;
}

const hostOf = (url: URL) => url.hostname.replace(/^\[|\]$/g, "");

/** Refuses a URL whose host is, or now resolves to, a private address (at save time). */
export async function assertPublicTarget(url: string): Promise<void> {
  const host = hostOf(new URL(url));
  if (isIP(host)) {
    if (isPrivateAddress(host)) throw new PrivateTargetError(host);
    return;
  }
  let addresses: LookupAddress[];
  try {
    addresses = await dns.promises.lookup(host, { all: true });
  } catch {
    return; // Unresolvable now: checked again on every delivery.
  }
  const bad = addresses.find((a) => isPrivateAddress(a.address));
  if (bad) throw new PrivateTargetError(bad.address);
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** A `lookup` for http.request that fails the connection when the name resolves to a private address. */
export function guardedLookup(hostname: string, options: dns.LookupOptions, callback: LookupCallback): void {
  dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, "");
    const list = addresses as LookupAddress[];
    const bad = list.find((a) => isPrivateAddress(a.address));
    if (bad) return callback(new PrivateTargetError(bad.address) as NodeJS.ErrnoException, "");
    if (options.all) return callback(null, list);
    callback(null, list[0]!.address, list[0]!.family);
  });
}

export { hostOf };
