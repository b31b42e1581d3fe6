// SASL on the listener (KIP-43 handshake v1 + SaslAuthenticate, as Java clients and librdkafka
// speak it): PLAIN and SCRAM-SHA-256/512 for the one configured user. Required whenever
// credentials are configured; a listener bound beyond loopback refuses to start without them.
import { timingSafeEqual } from 'node:crypto';
import {
  SCRAM_MECHANISMS,
  ScramExchange,
  ScramFailure,
  scramCredential,
  type ScramCredential,
  type ScramMechanism,
} from './scram.js';

export type SaslMechanism = 'PLAIN' | ScramMechanism;
export const SASL_MECHANISMS: readonly SaslMechanism[] = ['PLAIN', ...SCRAM_MECHANISMS];

export interface SaslCredentials {
  username: string;
  password: string;
  /** The mechanisms offered (default: PLAIN, SCRAM-SHA-256 and SCRAM-SHA-512). */
  mechanisms?: readonly SaslMechanism[];
}

/** A failed authentication: `reason` is logged, `message` is what the client is told. */
export class SaslFailure extends Error {
  constructor(
    readonly reason: string,
    message: string,
  ) {
    super(message);
  }
}

/** One connection's exchange under the mechanism its handshake chose. */
export interface SaslSession {
  /** The reply to a client token; `user` once authenticated. Throws SaslFailure. */
  step(token: Uint8Array): { reply: Uint8Array; user: string | null };
}

/** The listener's credentials, with SCRAM's derived once (per start, with a fresh salt). */
export class SaslAuthenticator {
  readonly mechanisms: readonly SaslMechanism[];
  private readonly scram = new Map<ScramMechanism, ScramCredential>();

  constructor(private readonly creds: SaslCredentials) {
    this.mechanisms = creds.mechanisms ?? SASL_MECHANISMS;
    for (const m of this.mechanisms)
      if (m !== 'PLAIN') this.scram.set(m, scramCredential(m, creds.password));
  }

  offers(mechanism: string): mechanism is SaslMechanism {
    return (this.mechanisms as readonly string[]).includes(mechanism);
  }

  session(mechanism: SaslMechanism): SaslSession {
    if (mechanism === 'PLAIN')
      return {
        step: (token) => {
          const r = checkPlain(token, this.creds);
          if (!r.ok) throw new SaslFailure(r.reason, r.reason);
          return { reply: new Uint8Array(0), user: r.user };
        },
      };
    const exchange = new ScramExchange(mechanism, this.creds.username, this.scram.get(mechanism)!);
    return {
      step: (token) => {
        try {
          return exchange.respond(token);
        } catch (err) {
          if (!(err instanceof ScramFailure)) throw err;
          // Kafka's words: the client learns that it failed, not why.
          throw new SaslFailure(
            err.message,
            `Authentication failed during authentication due to invalid credentials with SASL mechanism ${mechanism}`,
          );
        }
      },
    };
  }
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
