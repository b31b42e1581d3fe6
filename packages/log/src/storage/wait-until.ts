// A long poll's wait: resolves once `visible()` holds (checked whenever the partition notifies its
// listeners), after `timeoutMs`, or on abort. Nothing runs while it waits.
export function waitUntil(
  visible: () => boolean,
  listeners: Set<() => void>,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<void> {
  if (visible() || timeoutMs <= 0 || signal?.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      listeners.delete(check);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const check = (): void => {
      if (visible()) done();
    };
    const timer = setTimeout(done, timeoutMs);
    listeners.add(check);
    signal?.addEventListener('abort', done, { once: true });
  });
}
