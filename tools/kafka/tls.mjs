// Certificates for the broker's SSL listener, made at start-up in the broker's own (temp) dir with
// openssl, so no key is ever committed: a CA, a broker certificate for 127.0.0.1 (as an IP SAN:
// clients connect by IP) signed by it, packed with its key into a PKCS12 keystore for the broker,
// and an unrelated second CA, for tests that a client trusting the wrong CA is refused.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

function openssl(args, cwd) {
  const r = spawnSync('openssl', args, { cwd, encoding: 'utf8' });
  if (r.error || r.status !== 0)
    throw new Error(
      `openssl ${args[0]} failed (the broker's SSL listener needs openssl on PATH): ${r.error?.message ?? r.stderr}`,
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

/** Writes `<dir>/tls/`; returns the keystore's path and password and both CAs' PEM text. */
export function makeBrokerTls(dir) {
  const cwd = join(dir, 'tls');
  mkdirSync(cwd, { recursive: true });
  selfSignedCa(cwd, 'ca', 'streamwright-test-ca');
  selfSignedCa(cwd, 'other-ca', 'streamwright-untrusted-test-ca');
  openssl(
    [
      'req',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-subj',
      '/CN=127.0.0.1',
      '-keyout',
      'broker.key',
      '-out',
      'broker.csr',
    ],
    cwd,
  );
  writeFileSync(join(cwd, 'broker.ext'), 'subjectAltName=IP:127.0.0.1,DNS:localhost\n');
  openssl(
    [
      'x509',
      '-req',
      '-in',
      'broker.csr',
      '-CA',
      'ca.pem',
      '-CAkey',
      'ca.key',
      '-CAcreateserial',
      '-days',
      '2',
      '-extfile',
      'broker.ext',
      '-out',
      'broker.pem',
    ],
    cwd,
  );
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
    caPem: readFileSync(join(cwd, 'ca.pem'), 'utf8'),
    otherCaPem: readFileSync(join(cwd, 'other-ca.pem'), 'utf8'),
  };
}

/** server.properties entries of the SSL listener (no client certificates asked for). */
export function sslProperties(tls) {
  if (!tls) return {};
  return {
    'listener.name.ssl.ssl.keystore.type': 'PKCS12',
    'listener.name.ssl.ssl.keystore.location': tls.keystore,
    'listener.name.ssl.ssl.keystore.password': tls.password,
    'listener.name.ssl.ssl.key.password': tls.password,
  };
}
