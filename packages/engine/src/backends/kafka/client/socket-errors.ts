// What a failed socket means for a Kafka connection: Node reports a peer certificate that did
// not verify with OpenSSL's X509 reason as the error code, and a TLS alert from the broker as
// ERR_SSL_…_ALERT_<name>; both are refusals no retry fixes. Everything else (refused, reset,
// timed out, host unreachable) is a broker that may come back.
import { X509Certificate } from 'node:crypto';
import { KafkaConnectionError, KafkaTlsError } from './errors.js';

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

const codeOf = (error: unknown): string | undefined => {
  const code = (error as { code?: unknown } | null)?.code;
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

/** "TLS alert 42, bad certificate" from OpenSSL's multi-part message, else the code. */
export function tlsAlert(error: unknown): string {
  const message = (error as { message?: string }).message ?? '';
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

/** A socket's error as the client's: a TLS refusal (fatal) or a lost connection (retriable). */
export function socketError(broker: string, error: Error): KafkaTlsError | KafkaConnectionError {
  const code = codeOf(error);
  if (code !== undefined && (CERT_NOT_VERIFIED.has(code) || code.startsWith('ERR_SSL_')))
    return new KafkaTlsError(broker, code, error.message, { cause: error });
  return new KafkaConnectionError(broker, `connection to ${broker} failed: ${error.message}`, {
    cause: error,
    ...(code !== undefined ? { code } : {}),
  });
}
