// Ports for the brokers' listeners. Chosen below the kernel's ephemeral range (32768-60999 on
// Linux), never from it: a broker that is killed and restarted on its own ports must find them
// free, and while it is down its clients keep reconnecting from ephemeral ports — one of which
// could be the broker's own port (a listener could then not bind it again, or a client could
// even connect to itself by TCP simultaneous open).
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

const LOW = 20_000;

function ephemeralLow() {
  try {
    const [low] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8')
      .trim()
      .split(/\s+/);
    return Number(low) || 32_768;
  } catch {
    return 32_768;
  }
}

function canBind(port) {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

const taken = new Set();

/** A port on 127.0.0.1 that is free now, below the ephemeral range, not handed out before. */
export async function freePort() {
  const high = Math.max(LOW + 1000, ephemeralLow());
  for (let i = 0; i < 1000; i++) {
    const port = LOW + Math.floor(Math.random() * (high - LOW));
    if (taken.has(port)) continue;
    if (await canBind(port)) {
      taken.add(port);
      return port;
    }
  }
  throw new Error(`no free port on 127.0.0.1 between ${LOW} and ${high} after 1000 tries`);
}
