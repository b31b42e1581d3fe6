// Small helpers shared by the set-up scripts: run a command visibly, find or bootstrap pnpm 10.
import { spawnSync } from 'node:child_process';

export const PNPM_VERSION = '10.34.9';

export function step(title) {
  process.stdout.write(`\n\x1b[1m▶ ${title}\x1b[0m\n`);
}

/** Runs a command with inherited stdio; exits the script with its status on failure. */
export function run(cmd, args, options = {}) {
  const result = spawnSync(cmd, args, { stdio: 'inherit', ...options });
  if (result.error) {
    console.error(`✖ could not run ${cmd}: ${result.error.message}`);
    process.exit(1);
  }
  if (result.status !== 0) {
    console.error(`✖ ${cmd} ${args.join(' ')} exited with ${result.status ?? result.signal}`);
    process.exit(result.status ?? 1);
  }
}

function works(cmd, args) {
  const r = spawnSync(cmd, args, { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : null;
}

/**
 * pnpm 10 (pnpm 11 needs Node 22; corepack fails its signature check on Node 20), so use an
 * installed pnpm 10 when there is one, else run the pinned version through npx.
 */
export function pnpm() {
  const version = works('pnpm', ['--version']);
  if (version && version.startsWith('10.')) return { cmd: 'pnpm', pre: [] };
  return { cmd: 'npx', pre: ['--yes', `pnpm@${PNPM_VERSION}`] };
}

export function runPnpm(args, options) {
  const p = pnpm();
  run(p.cmd, [...p.pre, ...args], options);
}

process.env.TURBO_TELEMETRY_DISABLED = '1';
process.env.DO_NOT_TRACK = '1';
