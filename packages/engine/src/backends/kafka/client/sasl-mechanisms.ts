// The client side of the SASL mechanisms Kafka offers over SaslAuthenticate: PLAIN (RFC 4616:
// one message, `authzid NUL user NUL password`) and SCRAM-SHA-256/512 (RFC 5802 / RFC 7677, as
// Kafka implements it: KIP-84; the salted password by PBKDF2, the proof by HMAC, and the
// server's signature checked so a broker that does not know the password cannot pass as one).
// A mechanism is a small state machine: each step takes the broker's last message (none at
// first) and gives the next one to send, or null when the exchange is complete.
import { createHash, createHmac, pbkdf2Sync, randomBytes, timingSafeEqual } from 'node:crypto';

export interface SaslCredentials {
  mechanism: 'plain' | 'scram-sha-256' | 'scram-sha-512';
  username: string;
  password: string;
}

export interface SaslExchange {
  /** Kafka's name of the mechanism (SaslHandshake's `mechanism`). */
  readonly name: string;
  /** The next message for the broker given its last one (null before the first), or null: done. */
  step(fromBroker: Buffer | null): Buffer | null;
}

/** Thrown when the broker's SCRAM messages do not check out (not the broker's own refusal). */
export class SaslProtocolError extends Error {
  override name = 'SaslProtocolError';
}

export function saslExchange(credentials: SaslCredentials, nonce?: string): SaslExchange {
  if (credentials.mechanism === 'plain') return plain(credentials);
  return scram(credentials, credentials.mechanism === 'scram-sha-256' ? 'sha256' : 'sha512', nonce);
}

function plain({ username, password }: SaslCredentials): SaslExchange {
  let sent = false;
  return {
    name: 'PLAIN',
    step() {
      if (sent) return null;
      sent = true;
      return Buffer.from(`\u0000${username}\u0000${password}`, 'utf8');
    },
  };
}

/** SCRAM's saslname: ',' and '=' escaped (RFC 5802 §5.1). */
const saslName = (name: string): string => name.replace(/=/g, '=3D').replace(/,/g, '=2C');

/** The attributes of a SCRAM message (`r=…,s=…,i=…`). */
function attributes(message: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const part of message.split(',')) {
    const eq = part.indexOf('=');
    if (eq === 1) out.set(part[0]!, part.slice(2));
  }
  return out;
}

function scram(
  { username, password }: SaslCredentials,
  hash: 'sha256' | 'sha512',
  fixedNonce?: string,
): SaslExchange {
  const name = hash === 'sha256' ? 'SCRAM-SHA-256' : 'SCRAM-SHA-512';
  const keyLength = hash === 'sha256' ? 32 : 64;
  const nonce = fixedNonce ?? randomBytes(24).toString('base64').replace(/[=+/]/g, '');
  const clientFirstBare = `n=${saslName(username)},r=${nonce}`;
  const hmac = (key: Buffer, text: string | Buffer) => createHmac(hash, key).update(text).digest();
  let stage = 0;
  let serverSignature: Buffer | null = null;
  return {
    name,
    step(fromBroker) {
      stage++;
      if (stage === 1) return Buffer.from(`n,,${clientFirstBare}`, 'utf8');
      if (stage === 2) {
        const serverFirst = fromBroker!.toString('utf8');
        const a = attributes(serverFirst);
        const serverNonce = a.get('r');
        const salt = a.get('s');
        const iterations = Number(a.get('i'));
        if (a.has('e')) throw new SaslProtocolError(`the broker ended SCRAM: ${a.get('e')}`);
        if (!serverNonce?.startsWith(nonce) || salt === undefined || !(iterations > 0))
          throw new SaslProtocolError(`an unexpected SCRAM server-first message: ${serverFirst}`);
        const salted = pbkdf2Sync(
          Buffer.from(password.normalize('NFKC'), 'utf8'),
          Buffer.from(salt, 'base64'),
          iterations,
          keyLength,
          hash,
        );
        const clientKey = hmac(salted, 'Client Key');
        const storedKey = createHash(hash).update(clientKey).digest();
        const withoutProof = `c=biws,r=${serverNonce}`; // biws: base64 of the GS2 header "n,,"
        const authMessage = `${clientFirstBare},${serverFirst},${withoutProof}`;
        const signature = hmac(storedKey, authMessage);
        const proof = Buffer.alloc(clientKey.length);
        for (let i = 0; i < proof.length; i++) proof[i] = clientKey[i]! ^ signature[i]!;
        serverSignature = hmac(hmac(salted, 'Server Key'), authMessage);
        return Buffer.from(`${withoutProof},p=${proof.toString('base64')}`, 'utf8');
      }
      if (stage === 3) {
        const a = attributes(fromBroker!.toString('utf8'));
        if (a.has('e')) throw new SaslProtocolError(`the broker ended SCRAM: ${a.get('e')}`);
        const verifier = Buffer.from(a.get('v') ?? '', 'base64');
        if (
          serverSignature === null ||
          verifier.length !== serverSignature.length ||
          !timingSafeEqual(verifier, serverSignature)
        )
          throw new SaslProtocolError("the broker's SCRAM signature did not verify");
        return null;
      }
      return null;
    },
  };
}
