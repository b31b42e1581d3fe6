// SASL/SCRAM-SHA-256 and SCRAM-SHA-512, server side (RFC 5802, RFC 7677; Kafka's KIP-84), for
// the listener's one configured user. The credential (salt, StoredKey, ServerKey) is derived from
// the password once per listener start with a random salt, as Kafka stores it; the password
// itself never enters an exchange.
import { createHash, createHmac, pbkdf2Sync, randomBytes, timingSafeEqual } from 'node:crypto';

export type ScramMechanism = 'SCRAM-SHA-256' | 'SCRAM-SHA-512';
export const SCRAM_MECHANISMS: readonly ScramMechanism[] = ['SCRAM-SHA-256', 'SCRAM-SHA-512'];

/** Kafka's minimum (and default) iteration count for both mechanisms. */
const ITERATIONS = 4096;

const HASH: Record<ScramMechanism, { name: 'sha256' | 'sha512'; bytes: number }> = {
  'SCRAM-SHA-256': { name: 'sha256', bytes: 32 },
  'SCRAM-SHA-512': { name: 'sha512', bytes: 64 },
};

export interface ScramCredential {
  salt: Buffer;
  iterations: number;
  storedKey: Buffer;
  serverKey: Buffer;
}

export function scramCredential(
  mechanism: ScramMechanism,
  password: string,
  salt: Buffer = randomBytes(32),
  iterations = ITERATIONS,
): ScramCredential {
  const h = HASH[mechanism];
  const salted = pbkdf2Sync(Buffer.from(password, 'utf8'), salt, iterations, h.bytes, h.name);
  const clientKey = createHmac(h.name, salted).update('Client Key').digest();
  return {
    salt,
    iterations,
    storedKey: createHash(h.name).update(clientKey).digest(),
    serverKey: createHmac(h.name, salted).update('Server Key').digest(),
  };
}

/** A failed exchange; `reason` is logged, the client is told only that authentication failed. */
export class ScramFailure extends Error {}

// client-first-message: gs2-header ("n" or "y", no channel binding; optional authzid), then the
// bare part: n=<saslname>,r=<nonce>[,extensions].
const CLIENT_FIRST = /^([ny]),(?:a=([^,]*))?,(n=([^,]*),r=([^,]+)((?:,[^,]*)*))$/;
// client-final-message: c=<base64 gs2 header>,r=<nonce>[,extensions],p=<base64 proof>.
const CLIENT_FINAL = /^(c=([^,]*),r=([^,]+)(?:,[^,]*)*),p=([^,]+)$/;

/** SCRAM's saslname escaping: "=2C" is ",", "=3D" is "="; any other "=" is malformed. */
function unescapeName(name: string): string {
  if (/=(?!2C|3D)/.test(name)) throw new ScramFailure('malformed user name');
  return name.replace(/=2C/g, ',').replace(/=3D/g, '=');
}

/** One connection's SCRAM exchange: two client messages, two server messages. */
export class ScramExchange {
  private step: 'first' | 'final' | 'done' = 'first';
  private gs2Header = '';
  private clientFirstBare = '';
  private serverFirst = '';
  private nonce = '';
  private user = '';

  constructor(
    private readonly mechanism: ScramMechanism,
    private readonly username: string,
    private readonly credential: ScramCredential,
  ) {}

  /** The reply to a client message; `user` is set once the client has proved the password. */
  respond(message: Uint8Array): { reply: Buffer; user: string | null } {
    const text = Buffer.from(message).toString('utf8');
    if (this.step === 'first') return { reply: this.first(text), user: null };
    if (this.step === 'final') return { reply: this.final(text), user: this.user };
    throw new ScramFailure('the SCRAM exchange is already complete');
  }

  private first(text: string): Buffer {
    const m = CLIENT_FIRST.exec(text);
    if (!m) throw new ScramFailure('malformed SCRAM client-first message');
    const [, , authzid, bare, name, clientNonce, extensions] = m as unknown as string[];
    const user = unescapeName(name!);
    if (authzid !== undefined && authzid !== '' && unescapeName(authzid) !== user)
      throw new ScramFailure(`authorization id ${JSON.stringify(authzid)} is not the user`);
    // tokenauth=true: a delegation token, which this listener does not issue.
    if (/(^|,)tokenauth=true(,|$)/i.test(extensions!))
      throw new ScramFailure('delegation tokens are not supported');
    if (!safeEqual(user, this.username)) throw new ScramFailure('Invalid user credentials');
    this.user = user;
    this.gs2Header = text.slice(0, text.length - bare!.length);
    this.clientFirstBare = bare!;
    this.nonce = clientNonce! + randomBytes(24).toString('base64url');
    this.serverFirst = `r=${this.nonce},s=${this.credential.salt.toString('base64')},i=${this.credential.iterations}`;
    this.step = 'final';
    return Buffer.from(this.serverFirst);
  }

  private final(text: string): Buffer {
    this.step = 'done';
    const m = CLIENT_FINAL.exec(text);
    if (!m) throw new ScramFailure('malformed SCRAM client-final message');
    const [, withoutProof, channelBinding, nonce, proof] = m as unknown as string[];
    if (channelBinding !== Buffer.from(this.gs2Header).toString('base64'))
      throw new ScramFailure('channel binding does not match the client-first message');
    // Kafka's check is endsWith, not equality: librdkafka (2.0.2 here) sends its own nonce
    // again in front of the combined one.
    if (!nonce!.endsWith(this.nonce)) throw new ScramFailure('nonce does not match');
    const h = HASH[this.mechanism];
    const authMessage = `${this.clientFirstBare},${this.serverFirst},${withoutProof!}`;
    const clientProof = Buffer.from(proof!, 'base64');
    const signature = createHmac(h.name, this.credential.storedKey).update(authMessage).digest();
    if (clientProof.length !== signature.length) throw new ScramFailure('Invalid user credentials');
    const clientKey = Buffer.alloc(signature.length);
    for (let i = 0; i < signature.length; i++) clientKey[i] = clientProof[i]! ^ signature[i]!;
    const stored = createHash(h.name).update(clientKey).digest();
    if (!timingSafeEqual(stored, this.credential.storedKey))
      throw new ScramFailure('Invalid user credentials');
    const serverSignature = createHmac(h.name, this.credential.serverKey)
      .update(authMessage)
      .digest('base64');
    return Buffer.from(`v=${serverSignature}`);
  }
}

function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
