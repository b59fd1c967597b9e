/**
 * The SSRF guard of every request this service makes to a URL someone else chose (issue 12 for webhooks, issue 41
 * point 9 for organisation logos):
 * - `outboundUrlAllowed` checks a URL's form: `https:` only, but for `http:` on a loopback host when local URLs are
 *   allowed (tests, local development); no credentials; no loopback name or private IP literal in production;
 * - `guardedLookup`, the socket's `lookup`, checks the host's addresses after DNS resolution at connect time (so a
 *   rebinding between check and connect cannot slip through): loopback, private, link-local, CGNAT, multicast and
 *   reserved addresses are refused with `EFORBIDDENADDRESS`.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP } from 'node:net';

const blocked = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  blocked.addSubnet(net, bits, 'ipv4');
for (const [net, bits] of [
  ['::', 128],
  ['::1', 128],
  ['::ffff:0:0', 96],
  ['64:ff9b::', 96],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  blocked.addSubnet(net, bits, 'ipv6');

/** Whether an IP address is one a production request may not reach (private, loopback, link-local...). */
export function isForbiddenAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return blocked.check(address, 'ipv4');
  if (family === 6) {
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
    return mapped ? blocked.check(mapped[1], 'ipv4') : blocked.check(address, 'ipv6');
  }
  return true;
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * Whether an outbound URL's form is allowed (its addresses are checked again at each connect by `guardedLookup`):
 * `https:` (or `http:` on a loopback host with `allowLocal`), without credentials, and, without `allowLocal`, not
 * `localhost` nor a forbidden IP literal. A string that is not a URL is not allowed.
 */
export function outboundUrlAllowed(raw: string, allowLocal: boolean): boolean {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return false;
  }
  const httpOk = url.protocol === 'http:' && allowLocal && LOOPBACK_HOSTS.has(url.hostname);
  if (!(url.protocol === 'https:' || httpOk)) return false;
  if (url.username || url.password) return false;
  const literal = url.hostname.replace(/^\[|\]$/g, '');
  if (!allowLocal && (url.hostname === 'localhost' || (isIP(literal) && isForbiddenAddress(literal)))) return false;
  return true;
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A socket `lookup` that resolves as usual, then refuses forbidden addresses (the production SSRF guard): the
 * callback gets an error with code `EFORBIDDENADDRESS` when any address of the host is forbidden.
 */
export function guardedLookup(hostname: string, options: { all?: boolean }, callback: LookupCallback): void {
  dnsLookup(hostname, { all: true }, (err, addresses) => {
    if (err) return callback(err, []);
    const bad = addresses.find((a) => isForbiddenAddress(a.address));
    if (bad || addresses.length === 0) {
      const e: NodeJS.ErrnoException = new Error(`host ${hostname} resolves to a forbidden address`);
      e.code = 'EFORBIDDENADDRESS';
      return callback(e, []);
    }
    if (options.all) return callback(null, addresses);
    callback(null, addresses[0].address, addresses[0].family);
  });
}
