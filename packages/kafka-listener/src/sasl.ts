// SASL/PLAIN on the listener (KIP-43 handshake v1 + SaslAuthenticate, as Java clients and
// librdkafka speak it). Required whenever credentials are configured; a listener bound beyond
// loopback refuses to start without them.
import { timingSafeEqual } from 'node:crypto';

export interface SaslCredentials {
  mechanism: 'PLAIN';
  username: string;
  password: string;
}

function equal(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * Checks a PLAIN token (RFC 4616: authzid NUL authcid NUL passwd). Returns the user on success,
 * or the reason it failed (never echoing the password).
 */
export function checkPlain(
  token: Uint8Array,
  creds: SaslCredentials,
): { ok: true; user: string } | { ok: false; reason: string } {
  const parts = Buffer.from(token).toString('utf8').split('\u0000');
  if (parts.length !== 3) return { ok: false, reason: 'malformed PLAIN token' };
  const [authzid, user, password] = parts as [string, string, string];
  if (authzid !== '' && authzid !== user)
    return { ok: false, reason: `authorization id ${JSON.stringify(authzid)} is not the user` };
  if (!equal(user, creds.username) || !equal(password, creds.password))
    return { ok: false, reason: `Authentication failed: Invalid username or password` };
  return { ok: true, user };
}
