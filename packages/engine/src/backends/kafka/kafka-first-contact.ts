// The Kafka backend's first contact with the cluster, retried here rather than by kafkajs alone:
// kafkajs retries every connection error (8 times over 10–20 s), also those no retry can fix — a
// broker certificate that does not verify, a TLS handshake the broker refuses (no client
// certificate, or one it does not trust). A throwaway admin client without kafkajs' retries
// makes the contact; this loop retries only what can heal (connection refused or reset, a
// timeout: a broker still starting) on kafkajs' own schedule, and gives up at once on the rest.
import { X509Certificate } from 'node:crypto';

/** Node's codes for a peer certificate that did not verify (OpenSSL's X509_V_ERR_*). */
const CERT_NOT_VERIFIED = new Set([
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_CRL',
  'UNABLE_TO_DECRYPT_CERT_SIGNATURE',
  'UNABLE_TO_DECRYPT_CRL_SIGNATURE',
  'UNABLE_TO_DECODE_ISSUER_PUBLIC_KEY',
  'CERT_SIGNATURE_FAILURE',
  'CRL_SIGNATURE_FAILURE',
  'CERT_NOT_YET_VALID',
  'CERT_HAS_EXPIRED',
  'CRL_NOT_YET_VALID',
  'CRL_HAS_EXPIRED',
  'ERROR_IN_CERT_NOT_BEFORE_FIELD',
  'ERROR_IN_CERT_NOT_AFTER_FIELD',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'CERT_CHAIN_TOO_LONG',
  'CERT_REVOKED',
  'INVALID_CA',
  'PATH_LENGTH_EXCEEDED',
  'INVALID_PURPOSE',
  'CERT_UNTRUSTED',
  'CERT_REJECTED',
  'HOSTNAME_MISMATCH',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

/** TLS alerts (OpenSSL's ERR_SSL_*_ALERT_<name>) a broker sends when it refuses the client's certificate. */
const CLIENT_CERT_ALERTS =
  /_ALERT_(BAD_CERTIFICATE|CERTIFICATE_REQUIRED|CERTIFICATE_UNKNOWN|UNKNOWN_CA|UNSUPPORTED_CERTIFICATE|CERTIFICATE_REVOKED|CERTIFICATE_EXPIRED|HANDSHAKE_FAILURE)$/;

interface KafkajsError {
  name?: string;
  code?: unknown;
  message?: string;
  retriable?: boolean;
  cause?: unknown;
}

/** The error under kafkajs' retry wrappers (they keep the last attempt's error as `cause`). */
export function unwrapKafkajsError(error: unknown): unknown {
  let e = error as KafkajsError | undefined;
  while (
    (e?.name === 'KafkaJSNumberOfRetriesExceeded' || e?.name === 'KafkaJSNonRetriableError') &&
    e.cause !== undefined &&
    e.cause !== e
  )
    e = e.cause as KafkajsError;
  return e;
}

/** The socket error code kafkajs kept on a connection error, if any. */
const codeOf = (error: unknown): string | undefined => {
  const code = (error as KafkajsError | undefined)?.code;
  return typeof code === 'string' ? code : undefined;
};

/** The broker's certificate did not verify (wrong CA, wrong host name, expired…). */
export const isCertificateNotVerified = (error: unknown): boolean =>
  CERT_NOT_VERIFIED.has(codeOf(error) ?? '');

/** The broker ended the TLS handshake with an alert (OpenSSL's ERR_SSL_* codes). */
export const isTlsRefused = (error: unknown): boolean =>
  codeOf(error)?.startsWith('ERR_SSL_') ?? false;

/** The alert says the client certificate is missing or not accepted. */
export const isClientCertificateRefused = (error: unknown): boolean =>
  CLIENT_CERT_ALERTS.test(codeOf(error) ?? '');

/** True for failures no retry can fix: TLS verification and refusals, refused SASL credentials. */
export function isUnfixable(error: unknown): boolean {
  const e = unwrapKafkajsError(error);
  return (
    (e as KafkajsError | undefined)?.name === 'KafkaJSSASLAuthenticationError' ||
    isCertificateNotVerified(e) ||
    isTlsRefused(e)
  );
}

/** "TLS alert 42, bad certificate" from OpenSSL's multi-part message, else the code. */
export function tlsAlert(error: unknown): string {
  const message = (error as KafkajsError).message ?? '';
  const reason = /SSL routines:[^:]*:([^:]+)/.exec(message)?.[1];
  const number = /SSL alert number (\d+)/.exec(message)?.[1];
  const name = reason?.replace(/^(sslv3|tlsv1\d?) alert /, '');
  if (name !== undefined && number !== undefined) return `TLS alert ${number}, ${name}`;
  return name ?? codeOf(error) ?? message.trim();
}

/** "CN=…" of a PEM certificate, for messages (no secret: the broker sees it too). */
export function certificateSubject(pem: string | Buffer): string | undefined {
  try {
    return new X509Certificate(pem).subject.replace(/\n/g, ', ');
  } catch {
    return undefined;
  }
}

export interface RetrySchedule {
  retries: number;
  initialMs: number;
  maxMs: number;
}

/** kafkajs' own connection schedule in this backend (retries 8, 200 ms doubling up to 5 s). */
export const FIRST_CONTACT_SCHEDULE: RetrySchedule = { retries: 8, initialMs: 200, maxMs: 5_000 };

/**
 * Runs `attempt` (one connection without kafkajs' retries) until it succeeds; retries what
 * kafkajs would retry, except unfixable failures, which throw at once (unwrapped).
 */
export async function firstContact(
  attempt: () => Promise<void>,
  schedule: RetrySchedule = FIRST_CONTACT_SCHEDULE,
): Promise<void> {
  for (let n = 0; ; n++) {
    try {
      return await attempt();
    } catch (error) {
      const cause = unwrapKafkajsError(error) as KafkajsError | undefined;
      const retriable =
        typeof cause?.name === 'string' &&
        cause.name.startsWith('KafkaJS') &&
        cause.retriable !== false;
      if (!retriable || isUnfixable(cause) || n >= schedule.retries) throw cause;
      await new Promise((r) =>
        setTimeout(r, Math.min(schedule.initialMs * 2 ** n, schedule.maxMs)),
      );
    }
  }
}
