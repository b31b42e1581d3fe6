// Certificates for the broker's TLS listeners, made at start-up in the broker's own (temp) dir with
// openssl, so no key is ever committed: a CA, a broker certificate for 127.0.0.1 (as an IP SAN:
// clients connect by IP) signed by it, packed with its key into a PKCS12 keystore for the broker,
// a client certificate signed by the same CA (for the mutual-TLS listener), and an unrelated
// second CA with a client certificate of its own, for tests that a client trusting the wrong CA,
// or presenting a certificate the broker does not trust, is refused.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

function openssl(args, cwd) {
  const r = spawnSync('openssl', args, { cwd, encoding: 'utf8' });
  if (r.error || r.status !== 0)
    throw new Error(
      `openssl ${args[0]} failed (the broker's SSL listeners need openssl on PATH): ${r.error?.message ?? r.stderr}`,
    );
}

function selfSignedCa(cwd, name, cn) {
  openssl(
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '2',
      '-subj',
      `/CN=${cn}`,
      '-addext',
      'basicConstraints=critical,CA:TRUE',
      '-addext',
      'keyUsage=critical,keyCertSign,cRLSign',
      '-keyout',
      `${name}.key`,
      '-out',
      `${name}.pem`,
    ],
    cwd,
  );
}

/** `<name>.key` and `<name>.pem`: a key and a certificate for `cn` signed by CA `ca`. */
function signedCert(cwd, name, cn, ca, extensions) {
  const keyArgs = ['-newkey', 'rsa:2048', '-nodes', '-subj', `/CN=${cn}`];
  openssl(['req', ...keyArgs, '-keyout', `${name}.key`, '-out', `${name}.csr`], cwd);
  writeFileSync(join(cwd, `${name}.ext`), extensions);
  openssl(
    [
      'x509',
      '-req',
      '-in',
      `${name}.csr`,
      '-CA',
      `${ca}.pem`,
      '-CAkey',
      `${ca}.key`,
      '-CAcreateserial',
      '-days',
      '2',
      '-extfile',
      `${name}.ext`,
      '-out',
      `${name}.pem`,
    ],
    cwd,
  );
}

const read = (cwd, file) => readFileSync(join(cwd, file), 'utf8');

/**
 * Writes `<dir>/tls/`; returns the broker keystore's path and password, the CA file the broker
 * trusts for client certificates, and the PEM text of both CAs and both client certificates.
 */
export function makeBrokerTls(dir) {
  const cwd = join(dir, 'tls');
  mkdirSync(cwd, { recursive: true });
  selfSignedCa(cwd, 'ca', 'streamwright-test-ca');
  selfSignedCa(cwd, 'other-ca', 'streamwright-untrusted-test-ca');
  signedCert(cwd, 'broker', '127.0.0.1', 'ca', 'subjectAltName=IP:127.0.0.1,DNS:localhost\n');
  const client = 'extendedKeyUsage=clientAuth\n';
  signedCert(cwd, 'client', 'streamwright-test-client', 'ca', client);
  signedCert(cwd, 'other-client', 'streamwright-untrusted-test-client', 'other-ca', client);
  const password = randomBytes(12).toString('hex');
  openssl(
    [
      'pkcs12',
      '-export',
      '-in',
      'broker.pem',
      '-inkey',
      'broker.key',
      '-certfile',
      'ca.pem',
      '-name',
      'broker',
      '-out',
      'broker.p12',
      '-passout',
      `pass:${password}`,
    ],
    cwd,
  );
  return {
    keystore: join(cwd, 'broker.p12'),
    password,
    caFile: join(cwd, 'ca.pem'),
    caPem: read(cwd, 'ca.pem'),
    otherCaPem: read(cwd, 'other-ca.pem'),
    clientCertPem: read(cwd, 'client.pem'),
    clientKeyPem: read(cwd, 'client.key'),
    otherClientCertPem: read(cwd, 'other-client.pem'),
    otherClientKeyPem: read(cwd, 'other-client.key'),
  };
}

/** The broker's certificate for one TLS listener (`listener.name.<listener>.`). */
function keystore(listener, tls) {
  const prefix = `listener.name.${listener}.ssl.`;
  return {
    [`${prefix}keystore.type`]: 'PKCS12',
    [`${prefix}keystore.location`]: tls.keystore,
    [`${prefix}keystore.password`]: tls.password,
    [`${prefix}key.password`]: tls.password,
  };
}

/**
 * server.properties entries of the TLS listeners: SSL (no client certificate asked for), MTLS
 * (security protocol SSL with ssl.client.auth=required: a client certificate signed by the CA,
 * which the broker trusts from a PEM truststore) and, with SASL users, SASL_SSL.
 */
export function sslProperties(tls, sasl) {
  if (!tls) return {};
  return {
    ...keystore('ssl', tls),
    ...keystore('mtls', tls),
    'listener.name.mtls.ssl.client.auth': 'required',
    'listener.name.mtls.ssl.truststore.type': 'PEM',
    'listener.name.mtls.ssl.truststore.location': tls.caFile,
    ...(sasl ? keystore('sasl_ssl', tls) : {}),
  };
}
