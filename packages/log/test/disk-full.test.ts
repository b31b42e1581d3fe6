// A full disk: the log refuses what it cannot write with a clear, retriable error, never crashes
// the process (its timers included), loses nothing it acknowledged, and takes appends again once
// space returns. The second case needs a real full file system: a small tmpfs, mounted here (the
// tests run as root on this project's machines; anything else fails loudly, never skips).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isLogError, LogErrorCode } from '../src/errors.js';
import { Log } from '../src/log.js';
import { tmpDir } from './helpers.js';

const mounts: string[] = [];
afterEach(() => {
  for (const m of mounts.splice(0)) execFileSync('umount', ['-l', m]);
});

function smallTmpfs(bytes: number): string {
  const dir = tmpDir('swlog-full-');
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${bytes}`, 'tmpfs', dir]);
  } catch (err) {
    throw new Error(
      `this test mounts a ${bytes}-byte tmpfs and needs root (CAP_SYS_ADMIN): ${(err as Error).message}`,
    );
  }
  mounts.push(dir);
  return dir;
}

describe('a full disk', () => {
  it('a checkpoint the disk refuses is a WARN on the timer, with no .tmp left behind', async () => {
    const dataDir = tmpDir();
    const warnings: string[] = [];
    const log = await Log.open({
      dataDir,
      checkpointIntervalMs: 30,
      logger: { warn: (_o, msg) => warnings.push(msg ?? '') },
    });
    try {
      // /dev/full answers every write with ENOSPC: the checkpoint's temp file points at it.
      const tmp = path.join(dataDir, 'recovery-point-offset-checkpoint.tmp');
      fs.symlinkSync('/dev/full', tmp);
      // A new partition changes the checkpoint (an unchanged one is not written again).
      await log.createTopic('t', 1);
      await new Promise((r) => setTimeout(r, 300));
      expect(warnings.some((w) => /checkpoint failed.*ENOSPC|ENOSPC.*checkpoint/.test(w))).toBe(
        true,
      );
      expect(fs.readdirSync(dataDir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
      // The next ticks write it again.
      await new Promise((r) => setTimeout(r, 100));
      expect(fs.existsSync(path.join(dataDir, 'recovery-point-offset-checkpoint'))).toBe(true);
    } finally {
      await log.close();
    }
  });

  it('refuses appends with a retriable ENOSPC error, keeps every ack and resumes', async () => {
    const dataDir = smallTmpfs(1 << 20);
    const ballast = path.join(dataDir, 'ballast');
    let log = await Log.open({ dataDir, background: false });
    await log.createTopic('t', 1, { 'segment.bytes': 64 * 1024 });
    fs.writeFileSync(ballast, Buffer.alloc(256 * 1024));
    const acked: string[] = [];
    let refused: unknown = null;
    const value = Buffer.alloc(3000, 7);
    for (let i = 0; i < 1000 && refused === null; i++) {
      try {
        await log.produce([{ topic: 't', key: Buffer.from(`k${i}`), value }]);
        acked.push(`k${i}`);
      } catch (err) {
        refused = err;
      }
    }
    expect(acked.length).toBeGreaterThan(10);
    expect(isLogError(refused)).toBe(true);
    const err = refused as { code: string; retriable: boolean; message: string };
    expect(err.code).toBe(LogErrorCode.KAFKA_STORAGE_ERROR);
    expect(err.retriable).toBe(true);
    expect(err.message).toMatch(/no space left/);
    // Still refused while full; taken again once space returns.
    await expect(log.produce([{ topic: 't', key: Buffer.from('again'), value }])).rejects.toThrow(
      /no space left/,
    );
    fs.rmSync(ballast);
    await log.produce([{ topic: 't', key: Buffer.from('after'), value }]);
    acked.push('after');
    await log.close();
    log = await Log.open({ dataDir, background: false });
    try {
      const keys: string[] = [];
      for (let offset = 0; ;) {
        const res = await log.fetch('t', 0, offset, { maxBytes: 1 << 20 });
        if (res.records.length === 0) break;
        for (const r of res.records) keys.push(Buffer.from(r.key!).toString());
        offset = res.records[res.records.length - 1]!.offset + 1;
      }
      expect(keys).toEqual(acked);
    } finally {
      await log.close();
    }
  });

  it('closes on a still-full disk with a WARN, releases the lock and keeps every ack', async () => {
    const dataDir = smallTmpfs(1 << 20);
    const warnings: string[] = [];
    let log = await Log.open({
      dataDir,
      background: false,
      logger: { warn: (_o, msg) => warnings.push(msg ?? '') },
    });
    await log.createTopic('t', 1, { 'segment.bytes': 64 * 1024 });
    const room = path.join(dataDir, 'room'); // given back at the end, for the reopen
    fs.writeFileSync(room, Buffer.alloc(256 * 1024));
    const acked: string[] = [];
    const value = Buffer.alloc(3000, 7);
    for (let i = 0; i < 1000; i++) {
      try {
        await log.produce([{ topic: 't', key: Buffer.from(`k${i}`), value }]);
        acked.push(`k${i}`);
      } catch {
        break;
      }
    }
    // Not one byte left: the final index entries and checkpoints cannot be written either.
    const ballast = path.join(dataDir, 'ballast');
    const fd = fs.openSync(ballast, 'w');
    try {
      for (;;) fs.writeSync(fd, Buffer.alloc(4096));
    } catch (err) {
      expect((err as NodeJS.ErrnoException).code).toBe('ENOSPC');
    } finally {
      fs.closeSync(fd);
    }
    // Before: close threw ENOSPC from its final checkpoint (and a runtime shutting down with it).
    await expect(log.close()).resolves.toBeUndefined();
    expect(warnings.some((w) => /log close: .*(ENOSPC|no space left)/.test(w))).toBe(true);
    fs.rmSync(ballast);
    fs.rmSync(room);
    log = await Log.open({ dataDir, background: false }); // the lock was released
    try {
      const keys: string[] = [];
      for (let offset = 0; ;) {
        const res = await log.fetch('t', 0, offset, { maxBytes: 1 << 20 });
        if (res.records.length === 0) break;
        for (const r of res.records) keys.push(Buffer.from(r.key!).toString());
        offset = res.records[res.records.length - 1]!.offset + 1;
      }
      expect(keys).toEqual(acked);
    } finally {
      await log.close();
    }
  });
});
