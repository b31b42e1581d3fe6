// Stops a broker whose starter died without stopping it (a SIGKILLed test run): polls the
// starter's pid and, once it is gone, sends the broker process whose pid is in `pidFile` SIGTERM
// (SIGKILL after 30 s) and removes the broker's temp dir. One watchdog per broker node for the
// node's whole life, across its restarts: the starter writes each new JVM's pid into the file and
// empties it when that JVM exits (so a dead pid is never signalled), and sends the watchdog
// SIGTERM when it stops the node for good. Started detached by node.mjs;
// argv: starterPid pidFile [dirToRemove].
import { readFileSync, rmSync } from 'node:fs';

const [starter, pidFile, dir] = process.argv.slice(2);
const alive = (pid) => {
  try {
    process.kill(Number(pid), 0);
    return true;
  } catch {
    return false;
  }
};
const brokerPid = () => {
  try {
    const pid = Number(readFileSync(pidFile, 'utf8').trim());
    return pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
};
process.on('SIGTERM', () => process.exit(0));
const timer = setInterval(() => {
  if (alive(starter)) return;
  clearInterval(timer);
  const broker = brokerPid();
  if (broker !== undefined && alive(broker)) process.kill(broker, 'SIGTERM');
  const started = Date.now();
  const wait = setInterval(() => {
    if (broker !== undefined && alive(broker) && Date.now() - started < 30_000) return;
    clearInterval(wait);
    if (broker !== undefined && alive(broker)) process.kill(broker, 'SIGKILL');
    if (dir) rmSync(dir, { recursive: true, force: true });
    process.exit(0);
  }, 200);
}, 1000);
