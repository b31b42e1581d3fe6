// Stops a broker whose starter died without stopping it (a SIGKILLed test run): polls the
// starter's pid and, once it is gone, sends the broker SIGTERM (SIGKILL after 30 s) and removes
// its temp dir. Started detached by index.mjs; argv: starterPid brokerPid [dirToRemove].
import { rmSync } from 'node:fs';

const [starter, broker, dir] = process.argv.slice(2);
const alive = (pid) => {
  try {
    process.kill(Number(pid), 0);
    return true;
  } catch {
    return false;
  }
};
process.on('SIGTERM', () => process.exit(0));
const timer = setInterval(() => {
  if (!alive(broker)) process.exit(0);
  if (alive(starter)) return;
  clearInterval(timer);
  process.kill(Number(broker), 'SIGTERM');
  const started = Date.now();
  const wait = setInterval(() => {
    if (alive(broker) && Date.now() - started < 30_000) return;
    clearInterval(wait);
    if (alive(broker)) process.kill(Number(broker), 'SIGKILL');
    if (dir) rmSync(dir, { recursive: true, force: true });
    process.exit(0);
  }, 200);
}, 1000);
