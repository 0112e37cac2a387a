// Which Host a request to `sjd serve` may name (DNS rebinding: a page of another site whose name
// the attacker points at 127.0.0.1 reaches the server with that site's name in its Host header,
// and is refused): `localhost`, a loopback address, the host the server was told to listen on,
// and, when it listens on every interface (0.0.0.0, ::), any address literal (a name resolved by
// someone else's DNS is never one). A request without a Host header is refused too (400), in the
// API's one error shape.
import { isIP } from 'node:net';
import { isLoopback } from '../util/loopback.js';

/** The name of a Host header (`name`, `name:port`, `[v6]`, `[v6]:port`), lower case, unbracketed. */
export function hostName(host: string): string {
  const h = host.trim().toLowerCase();
  if (h.startsWith('[')) return h.slice(1, h.indexOf(']') < 0 ? undefined : h.indexOf(']'));
  const colon = h.lastIndexOf(':');
  return colon >= 0 && h.indexOf(':') === colon ? h.slice(0, colon) : h;
}

/**
 * Why a request's Host header is refused (null when it is accepted), for a server listening on
 * `listen` (an address or a name).
 */
export function hostRefusal(host: string | undefined, listen: string): string | null {
  if (host === undefined || host.trim() === '') return 'the request has no Host header';
  const name = hostName(host);
  const own = hostName(listen);
  const wildcard = own === '0.0.0.0' || own === '::' || own === '';
  if (isLoopback(name, true) || name === own || (wildcard && isIP(name) !== 0)) return null;
  return `Host '${host}' is not this server (it answers to localhost, loopback addresses and ${listen})`;
}
