// Whether an address is this machine's loopback (127.0.0.0/8, ::1, IPv4 loopback mapped into
// IPv6), or a name for it (localhost): `sjd serve` (is it reachable from elsewhere; which Host
// headers it answers) and data-parallel training's --master (no network interface needed).
import { BlockList, isIP } from 'node:net';

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');
LOOPBACK.addSubnet('::ffff:127.0.0.0', 104, 'ipv6');

/** Whether `address` is a loopback address literal, or `localhost` when `names` allows it. */
export function isLoopback(address: string, names = false): boolean {
  if (names && address.toLowerCase() === 'localhost') return true;
  const v = isIP(address);
  return v !== 0 && LOOPBACK.check(address, v === 6 ? 'ipv6' : 'ipv4');
}
